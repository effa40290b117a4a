package io.sluice.common;

/**
 * Does on a thread of its own a piece of set-up that a later step needs, so that the caller's
 * next steps overlap it: a process starting runs one thread at a time for seconds while the
 * machine's other cores idle. The work must be safe to do twice or to meet half-done (Spark's
 * lazy values are); a failure is left to the step that needs the work, which meets it again
 * and reports it.
 */
public final class Ahead {
  private Ahead() {}

  public static void start(String name, Runnable work) {
    Thread thread = new Thread(() -> {
      try {
        work.run();
      } catch (RuntimeException | LinkageError e) {
        // met again, and reported, by the step that needs the work
      }
    }, "sluice-ahead-" + name);
    thread.setDaemon(true);
    thread.start();
  }
}
