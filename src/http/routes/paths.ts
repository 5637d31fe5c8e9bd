// Where the API lives. The groups are registered under this prefix (routes/api.ts); Location headers name
// resources under it. Nowhere else is it spelled out.
export const API_V1 = '/api/v1';

/** Where a batch's status is read: the Location of every answer that queued one. */
export const batchLocation = (batchId: string): string => `${API_V1}/queues/batch/${batchId}`;
