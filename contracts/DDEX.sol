// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title DDEX
/// @notice Testnet demonstration token for the DDEX Token Portal. It has no value and no owner:
/// a fixed supply is minted once, at deployment, and audited OpenZeppelin ERC-20 code does the rest.
contract DDEX is ERC20 {
    /// @notice The constructor was given no holders.
    error DDEXNoHolders();

    /// @notice The constructor was given a zero amount per holder.
    error DDEXZeroAmount();

    /// @param holders Accounts that each receive `amountEach` (in the smallest unit, 18 decimals).
    /// @param amountEach Amount minted to every holder.
    constructor(address[] memory holders, uint256 amountEach) ERC20("DDEX", "DDEX") {
        if (holders.length == 0) revert DDEXNoHolders();
        if (amountEach == 0) revert DDEXZeroAmount();
        for (uint256 i = 0; i < holders.length; ++i) {
            _mint(holders[i], amountEach);
        }
    }
}
