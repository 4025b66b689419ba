// Saves a value as a JSON file through the browser's download, with a
// timestamped name so several exports of one session do not overwrite.

export function journalFileName(now: Date = new Date()): string {
  return `ddex-journal-${now.toISOString().replace(/[:.]/g, '-')}.json`;
}

export function downloadJson(data: unknown, fileName: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking in the same task can cancel the download in some browsers; the next task is safe.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
