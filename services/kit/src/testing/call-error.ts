/**
 * The error a gRPC call failed with (its status code and details), for a test that expects it to fail; a call that
 * succeeds fails the test.
 */
export function callError(promise: Promise<unknown>): Promise<{ code: number; details: string }> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: { code: number; details: string }) => error,
  );
}
