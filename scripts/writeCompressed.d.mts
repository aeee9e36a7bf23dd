export function writeCompressed(file: string, text: string): void;
