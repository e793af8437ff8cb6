/** The answer Ganeti reads back from the allocator's stdout. */
export interface IallocatorAnswer {
  success: boolean;
  info: string;
  result: unknown;
}

export function failure(info: string): IallocatorAnswer {
  return { success: false, info, result: [] };
}
