export function ensureWebBuilt(root: string): boolean;
