/** Saves text as a file through the browser's download (conversation exports, 'Export my data'). */
export function downloadFile(fileName: string, content: string, type: string) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: some browsers read the blob only after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
