// Parses a runtime's error into the shape TxResult carries.
export function parseInstructionError(text: string): { customCode?: number; instructionIndex?: number } {
  const custom = /Instruction (\d+): custom program error: 0x([0-9a-fA-F]+)/.exec(text);
  if (custom) return { instructionIndex: Number(custom[1]), customCode: parseInt(custom[2], 16) };
  const idx = /Instruction (\d+)/.exec(text);
  return idx ? { instructionIndex: Number(idx[1]) } : {};
}
