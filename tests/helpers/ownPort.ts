/**
 * Starts a test server that will be stopped and started again on the same port. Ports are chosen at random below
 * the kernel's ephemeral range (32768 and up on Linux): a port the OS hands out for `listen(0)` or an outgoing
 * connection could be given to another test's server while this one is down, and its restart would then fail
 * with EADDRINUSE.
 */
const OWN_PORTS = { low: 20_000, high: 32_000 };

export async function onOwnPort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const port = OWN_PORTS.low + Math.floor(Math.random() * (OWN_PORTS.high - OWN_PORTS.low));
    try {
      return await start(port);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || attempt >= 50) throw error;
    }
  }
}
