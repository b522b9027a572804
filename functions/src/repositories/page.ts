/** One page of a listing, and the opaque cursor of the next (null: the last page). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}
