// A native <select> styled like the inputs (filters and short choices, where Radix's Select would add weight).
export const NATIVE_SELECT_CLASS = 'h-9 rounded-md border border-input bg-transparent px-3 text-sm shadow-xs';
