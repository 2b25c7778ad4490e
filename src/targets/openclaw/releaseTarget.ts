export async function loadReleaseTarget(_v: string): Promise<never> { throw new Error("todo"); }
