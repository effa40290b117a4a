package io.sluice.cli;

import io.sluice.update.StopSignal;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * While a continuous update runs, SIGINT (Ctrl-C) and SIGTERM ask it to stop instead of ending
 * the JVM, so the batch in flight finishes, the event log records the stop and the command
 * exits 0. A second signal ends the process at once, which is as safe as a crash (SEMANTICS §7.4).
 */
final class StopOnSignals implements AutoCloseable {
  private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();

  StopOnSignals(StopSignal stop, PrintWriter err) {
    for (String name : new String[] {"INT", "TERM"}) {
      Signal signal = new Signal(name);
      previous.put(signal, Signal.handle(signal, received -> {
        if (stop.requested()) {
          System.exit(128 + received.getNumber());
        }
        stop.request("SIG" + received.getName());
        err.println("stopping (SIG" + received.getName() + "): no new batch starts, the one in flight finishes;"
            + " send it again to stop at once");
        err.flush();
      }));
    }
  }

  @Override
  public void close() {
    previous.forEach(Signal::handle);
  }
}
