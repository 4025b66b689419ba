// Database types in the shape `supabase gen types typescript` emits, kept in
// step with supabase/migrations by hand; the contract tests type their
// clients with them, and profiles.test.ts checks the profile row's columns.

export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[];

/**
 * A numeric column. PostgREST sends a JSON number; the local stack sends a decimal string where a
 * number would lose digits (0.000000000001), so read one through Number() or a decimal parser.
 * Written either way: a decimal string keeps every digit.
 */
export type Numeric = number | string;

export type Database = {
  public: {
    Tables: {
      profiles: {
        Row: {
          id: string;
          email: string | null;
          wallet_address: string | null;
          mc_wallet_address: string | null;
          updated_at: string;
          created_at: string;
          username: string | null;
          role: string;
          avatar_url: string | null;
          full_name: string | null;
          website: string | null;
          theme_preference: string;
          hcaptcha_sim_verified: boolean;
          last_dex_activity: string | null;
          two_factor_enabled: boolean;
          last_login_ip: string | null;
          kyc_status: string;
          account_tier: string;
          preferred_language: string;
          notification_preferences: Json;
          api_key_count: number;
          referral_code: string | null;
          referred_by_user_id: string | null;
          wallet_verified_at: string | null;
        };
        Insert: {
          id: string;
          email?: string | null;
          wallet_address?: string | null;
          mc_wallet_address?: string | null;
          updated_at?: string;
          created_at?: string;
          username?: string | null;
          role?: string;
          avatar_url?: string | null;
          full_name?: string | null;
          website?: string | null;
          theme_preference?: string;
          hcaptcha_sim_verified?: boolean;
          last_dex_activity?: string | null;
          two_factor_enabled?: boolean;
          last_login_ip?: string | null;
          kyc_status?: string;
          account_tier?: string;
          preferred_language?: string;
          notification_preferences?: Json;
          api_key_count?: number;
          referral_code?: string | null;
          referred_by_user_id?: string | null;
          wallet_verified_at?: string | null;
        };
        Update: Partial<Database['public']['Tables']['profiles']['Insert']>;
        Relationships: [];
      };
      user_notifications: {
        Row: {
          id: string;
          user_id: string;
          title: string;
          message: string;
          is_read: boolean;
          read_at: string | null;
          created_at: string;
          /**
           * 20261206000001: what it is about, for the emails its owner may have asked for:
           * 'transfers' (DDEX or ETH received), 'bots' (a bot fired), or null (never mailed).
           * Optional here only while fixtures written before it lack it.
           */
          kind?: 'transfers' | 'bots' | null;
        };
        Insert: {
          id?: string;
          user_id: string;
          title: string;
          message?: string;
          is_read?: boolean;
          read_at?: string | null;
          created_at?: string;
          kind?: 'transfers' | 'bots' | null;
        };
        Update: Partial<Database['public']['Tables']['user_notifications']['Insert']>;
        Relationships: [];
      };
      transactions: {
        Row: {
          id: string;
          user_id: string;
          created_at: string;
          type: string;
          status: string;
          amount: string | null;
          asset_amount: string | null;
          token_symbol: string | null;
          asset_symbol: string | null;
          tx_hash: string;
          transaction_hash: string | null;
          /**
           * The transfer's log in its block; null for a transaction's own ETH value or fee, and for
           * rows recorded before 20261126000001 that no writer has named a log for since. Every
           * read returns it; it is optional here only while test fixtures written before it lack it.
           */
          log_index?: number | null;
          // 20261202000001: where the row sits in the chain and what it moved against (optional
          // here, like log_index, only while fixtures written before them lack them).
          /** The block the transaction was mined in; corrected after a reorganisation. */
          block_number?: number | null;
          /** The other side of a transfer, or an approval's spender. */
          counterparty?: string | null;
          /** A swap's other leg, signed from the wallet's side like amount (e.g. "-0.01" ETH paid). */
          counter_amount?: string | null;
          counter_symbol?: string | null;
          /** An approval of the token's largest allowance (2^256 - 1). */
          unlimited?: boolean;
        };
        Insert: {
          id?: string;
          user_id: string;
          created_at?: string;
          type: string;
          status: string;
          amount?: string | null;
          asset_amount?: string | null;
          token_symbol?: string | null;
          asset_symbol?: string | null;
          tx_hash: string;
          transaction_hash?: string | null;
          log_index?: number | null;
          block_number?: number | null;
          counterparty?: string | null;
          counter_amount?: string | null;
          counter_symbol?: string | null;
          unlimited?: boolean;
        };
        Update: Partial<Database['public']['Tables']['transactions']['Insert']>;
        Relationships: [];
      };
      wallet_link_nonces: {
        Row: {
          nonce: string;
          user_id: string;
          address: string;
          issued_at: string;
          expires_at: string;
          used_at: string | null;
        };
        Insert: {
          nonce: string;
          user_id: string;
          address: string;
          issued_at?: string;
          expires_at: string;
          used_at?: string | null;
        };
        Update: Partial<Database['public']['Tables']['wallet_link_nonces']['Insert']>;
        Relationships: [];
      };
      tatum_subscriptions: {
        Row: {
          id: string;
          user_id: string;
          address: string;
          url: string;
          chain: string;
          created_at: string;
        };
        Insert: {
          id: string;
          user_id: string;
          address: string;
          url: string;
          chain: string;
          created_at?: string;
        };
        Update: Partial<Database['public']['Tables']['tatum_subscriptions']['Insert']>;
        Relationships: [];
      };
      function_rate_limits: {
        Row: { bucket: string; window_start: string; requests: number };
        Insert: { bucket: string; window_start: string; requests: number };
        Update: Partial<Database['public']['Tables']['function_rate_limits']['Insert']>;
        Relationships: [];
      };
      // 20261201000001: a user's market bots. Only the columns of the bot's kind are set: level
      // (ETH per DDEX) for price_above/price_below, move_pct and window_minutes for price_move,
      // min_ddex for large_swap. armed_at, last_fired_at, created_at and updated_at are the
      // server's (bots_guard).
      bots: {
        Row: {
          id: string;
          user_id: string;
          name: string;
          kind: string;
          level: Numeric | null;
          move_pct: Numeric | null;
          window_minutes: number | null;
          min_ddex: Numeric | null;
          cooldown_minutes: number;
          status: string;
          armed_at: string;
          last_fired_at: string | null;
          created_at: string;
          updated_at: string;
        };
        Insert: {
          id?: string;
          user_id?: string;
          name: string;
          kind: string;
          level?: Numeric | null;
          move_pct?: Numeric | null;
          window_minutes?: number | null;
          min_ddex?: Numeric | null;
          cooldown_minutes?: number;
          status?: string;
          armed_at?: string;
          last_fired_at?: string | null;
          created_at?: string;
          updated_at?: string;
        };
        Update: Partial<Database['public']['Tables']['bots']['Insert']>;
        Relationships: [];
      };
      // 20261201000001: one row per firing; written by evaluate_market_swap alone.
      bot_runs: {
        Row: {
          id: string;
          bot_id: string;
          user_id: string;
          tx_hash: string;
          log_index: number;
          block_number: number;
          block_time: string;
          price_before: Numeric;
          price_after: Numeric;
          ddex_amount: Numeric;
          side: string;
          notification_id: string | null;
          created_at: string;
        };
        Insert: {
          id?: string;
          bot_id: string;
          user_id: string;
          tx_hash: string;
          log_index: number;
          block_number: number;
          block_time: string;
          price_before: Numeric;
          price_after: Numeric;
          ddex_amount: Numeric;
          side: string;
          notification_id?: string | null;
          created_at?: string;
        };
        Update: Partial<Database['public']['Tables']['bot_runs']['Insert']>;
        Relationships: [];
      };
      // 20261201000001: the pair's recent swaps; no API role may read it.
      market_prices: {
        Row: {
          pair: string;
          tx_hash: string;
          log_index: number;
          block_number: number;
          block_time: string;
          price_before: Numeric;
          price_after: Numeric;
          ddex_amount: Numeric;
          side: string;
        };
        Insert: {
          pair: string;
          tx_hash: string;
          log_index: number;
          block_number: number;
          block_time: string;
          price_before: Numeric;
          price_after: Numeric;
          ddex_amount: Numeric;
          side: string;
        };
        Update: Partial<Database['public']['Tables']['market_prices']['Insert']>;
        Relationships: [];
      };
      // 20261203000001: the bots' project-wide limits, one row (id true) that only the service
      // role reads and changes.
      bot_settings: {
        Row: {
          id: boolean;
          max_active_bots: number;
          large_swap_min_ddex: Numeric;
          /** 20261203000002: bots weighed per call of evaluate_market_swap. */
          evaluation_batch_size: number;
          updated_at: string;
        };
        Insert: {
          id?: boolean;
          max_active_bots?: number;
          large_swap_min_ddex?: Numeric;
          evaluation_batch_size?: number;
          updated_at?: string;
        };
        Update: Partial<Database['public']['Tables']['bot_settings']['Insert']>;
        Relationships: [];
      };
      // 20261202000002: the server's own Tatum subscription of each proven wallet (lower-case
      // address); no API role may read it.
      wallet_watches: {
        Row: {
          address: string;
          user_id: string;
          url: string;
          subscription_id: string | null;
          state: 'subscribing' | 'active';
          created_at: string;
          updated_at: string;
        };
        Insert: {
          address: string;
          user_id: string;
          url: string;
          subscription_id?: string | null;
          state?: 'subscribing' | 'active';
          created_at?: string;
          updated_at?: string;
        };
        Update: Partial<Database['public']['Tables']['wallet_watches']['Insert']>;
        Relationships: [];
      };
      // 20261202000002: addresses whose watch may be out of date, queued by the profiles trigger
      // and drained by watch-wallets; no API role may read it.
      wallet_watch_jobs: {
        Row: {
          id: number;
          address: string;
          user_id: string | null;
          created_at: string;
          attempts: number;
          next_attempt_at: string;
          claimed_by: string | null;
          claimed_until: string | null;
          last_error: string | null;
        };
        Insert: {
          address: string;
          user_id?: string | null;
          created_at?: string;
          attempts?: number;
          next_attempt_at?: string;
          claimed_by?: string | null;
          claimed_until?: string | null;
          last_error?: string | null;
        };
        Update: Partial<Database['public']['Tables']['wallet_watch_jobs']['Insert']>;
        Relationships: [];
      };
      // 20261205000001: the faucet's claims, one per account and address per cooldown; no API role
      // may read it.
      faucet_claims: {
        Row: {
          id: string;
          user_id: string;
          address: string;
          claimed_at: string;
          amount: string;
          tx_hash: string | null;
        };
        Insert: {
          id?: string;
          user_id: string;
          address: string;
          claimed_at?: string;
          amount: string;
          tx_hash?: string | null;
        };
        Update: Partial<Database['public']['Tables']['faucet_claims']['Insert']>;
        Relationships: [];
      };
      // 20261206000001: one email per notification its owner wants mailed, queued by a trigger on
      // user_notifications and drained by email-alerts; no API role may read it.
      email_outbox: {
        Row: {
          id: string;
          notification_id: string;
          user_id: string;
          kind: 'transfers' | 'bots';
          recipient: string;
          subject: string;
          body: string;
          created_at: string;
          attempts: number;
          next_attempt_at: string;
          claimed_by: string | null;
          claimed_until: string | null;
          sent_at: string | null;
          discarded_at: string | null;
          last_error: string | null;
        };
        Insert: {
          id?: string;
          notification_id: string;
          user_id: string;
          kind: 'transfers' | 'bots';
          recipient: string;
          subject: string;
          body: string;
          created_at?: string;
          attempts?: number;
          next_attempt_at?: string;
          claimed_by?: string | null;
          claimed_until?: string | null;
          sent_at?: string | null;
          discarded_at?: string | null;
          last_error?: string | null;
        };
        Update: Partial<Database['public']['Tables']['email_outbox']['Insert']>;
        Relationships: [];
      };
    };
    Views: { [_ in never]: never };
    Functions: {
      // Two forms (20261126000001): with the transfer's log, or without one (null, as the
      // earlier form records).
      record_transfer:
        | {
            Args: {
              p_user_id: string;
              p_tx_hash: string;
              p_type: string;
              p_log_index: number | null;
              p_status: string;
              p_amount: string;
              p_token_symbol: string;
              p_title?: string;
              p_message?: string;
            };
            Returns: boolean;
          }
        | {
            Args: {
              p_user_id: string;
              p_tx_hash: string;
              p_type: string;
              p_status: string;
              p_amount: string;
              p_token_symbol: string;
              p_title?: string;
              p_message?: string;
            };
            Returns: boolean;
          };
      // 20261202000001: record_transfer's row with its block, counterparty and a swap's both legs.
      record_wallet_row: {
        Args: {
          p_user_id: string;
          p_tx_hash: string;
          p_type: string;
          p_log_index: number | null;
          p_status: string;
          p_amount: string;
          p_token_symbol: string;
          p_block_number?: number | null;
          p_counterparty?: string | null;
          p_counter_amount?: string | null;
          p_counter_symbol?: string | null;
          p_unlimited?: boolean;
          p_title?: string;
          p_message?: string;
        };
        Returns: boolean;
      };
      // 20261202000001: true when a reorganisation changed the rows (and the user was told once).
      correct_wallet_rows: {
        Args: {
          p_user_id: string;
          p_tx_hash: string;
          p_block_number: number | null;
          p_amounts: Json;
          p_notification_id: string;
          p_title: string;
          p_message: string;
        };
        Returns: boolean;
      };
      forget_tatum_subscription: {
        Args: { p_user_id: string; p_id: string };
        Returns: boolean;
      };
      take_rate_limit: {
        Args: { p_bucket: string; p_limit: number; p_window_seconds: number };
        Returns: number;
      };
      // 20261203000002: one batch of the bots a swap meets (bot_settings.evaluation_batch_size,
      // after p_after_bot): how many it fired, 0 on a repeat, and the last bot it weighed when the
      // batch was full (null: none left). Prices are ETH per DDEX; the *_text arguments are the
      // display texts the notification shows; p_rules 'all', 'price' or 'size'.
      evaluate_market_swap: {
        Args: {
          p_pair: string;
          p_tx_hash: string;
          p_log_index: number;
          p_block_number: number;
          p_block_time: string;
          p_price_before: Numeric;
          p_price_after: Numeric;
          p_ddex_amount: Numeric;
          p_side: string;
          p_price_before_text: string;
          p_price_after_text: string;
          p_amount_text: string;
          p_rules?: 'all' | 'price' | 'size';
          p_after_bot?: string | null;
        };
        Returns: { fired: number; next_bot: string | null }[];
      };
      // 20261202000002: the watch-wallets function's claims on the queue (each due address once,
      // leased for p_lease_seconds), their end (p_error null: done), and forgetting a watch.
      claim_wallet_watches: {
        Args: { p_url: string; p_limit: number; p_lease_seconds: number };
        Returns: { address: string; claim: string }[];
      };
      finish_wallet_watch: {
        Args: { p_address: string; p_claim: string; p_error: string | null };
        Returns: undefined;
      };
      forget_wallet_watch: {
        Args: { p_address: string };
        Returns: boolean;
      };
      // 20261205000001: a faucet claim taken (claim_id) or the time the next may be (claim_id null).
      take_faucet_claim: {
        Args: { p_user_id: string; p_address: string; p_amount: string; p_cooldown: string };
        Returns: { claim_id: string | null; next_claim_at: string }[];
      };
      // 20261206000001: email-alerts' claims on the outbox (each due email once, leased for
      // p_lease_seconds) and their end (p_error null: sent; else retried p_retry_after_ms later);
      // email-unsubscribe's turning one kind off; where a user's emails of a kind go (null: none).
      claim_email_alerts: {
        Args: { p_limit: number; p_lease_seconds: number };
        Returns: {
          id: string;
          claim: string;
          user_id: string;
          kind: 'transfers' | 'bots';
          recipient: string;
          subject: string;
          body: string;
          attempts: number;
        }[];
      };
      finish_email_alert: {
        Args: { p_id: string; p_claim: string; p_error: string | null; p_retry_after_ms?: number };
        Returns: boolean;
      };
      // 20261207000001: a claim whose mail the server refused for good, discarded with the reason.
      discard_email_alert: {
        Args: { p_id: string; p_claim: string; p_reason: string };
        Returns: boolean;
      };
      // 20261207000002: the signed-in owner's one email kind, on or off; answers the preferences.
      set_email_alert: {
        Args: { p_kind: 'transfers' | 'bots'; p_on: boolean };
        Returns: Json;
      };
      unsubscribe_email_alerts: {
        Args: { p_user_id: string; p_kind: 'transfers' | 'bots' };
        Returns: boolean;
      };
      email_alert_recipient: {
        Args: { p_user_id: string; p_kind: 'transfers' | 'bots' };
        Returns: string | null;
      };
    };
    Enums: { [_ in never]: never };
    CompositeTypes: { [_ in never]: never };
  };
};

export type Tables<T extends keyof Database['public']['Tables']> = Database['public']['Tables'][T]['Row'];
