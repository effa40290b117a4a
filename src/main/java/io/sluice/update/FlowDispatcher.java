package io.sluice.update;

import io.sluice.graph.ResolvedFlow;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Starts the flows of a round as soon as what they read is written (SEMANTICS §10.2): a flow
 * waits for the flows before it that write one of its inputs, and for those into its own target,
 * which run one after another (they share a table, and AUTO CDC flows their state). Up to
 * {@code limit} run at once, each on a thread of its own; flows that {@code onCaller} picks
 * (views: registered in the caller's session, where later flows' sessions copy them from) run
 * on the caller's thread.
 */
final class FlowDispatcher {
  /**
   * The flows' threads, kept from round to round and update to update: the embedded metastore
   * keeps a store per thread, and a thread's first catalog call builds it (Hive's configuration
   * of about a thousand settings, parsed anew, and a database session). A pool per round paid
   * that again in every round: a fifth of the CPU of an idle continuous run's rounds.
   */
  private static final ExecutorService THREADS = flowThreads();

  private final int limit;

  /** Runs one flow; {@code ownThread} says whether beside others, on a thread of its own. */
  @FunctionalInterface
  interface Step {
    void run(ResolvedFlow flow, boolean ownThread);
  }

  FlowDispatcher(int limit) {
    this.limit = limit;
  }

  /** Runs {@code step} for each flow, in the order given or as their inputs allow; returns when all have run. */
  void run(List<ResolvedFlow> flows, Predicate<ResolvedFlow> onCaller, Step step) {
    if (limit <= 1) {
      flows.forEach(flow -> step.run(flow, false));
      return;
    }
    Map<ResolvedFlow, List<ResolvedFlow>> waitsFor = dependencies(flows);
    CompletionService<ResolvedFlow> done = new ExecutorCompletionService<>(THREADS);
    // By identity: a resolved flow is a record whose hash would walk its whole definition.
    Set<ResolvedFlow> started = Collections.newSetFromMap(new IdentityHashMap<>());
    Set<ResolvedFlow> finished = Collections.newSetFromMap(new IdentityHashMap<>());
    int running = 0;
    try {
      while (finished.size() < flows.size()) {
        boolean ranOnCaller = false;
        for (ResolvedFlow flow : flows) {
          if (started.contains(flow) || !finished.containsAll(waitsFor.get(flow))) {
            continue;
          }
          if (onCaller.test(flow)) {
            started.add(flow);
            step.run(flow, false);
            finished.add(flow);
            ranOnCaller = true;
            break;
          }
          if (running < limit) {
            started.add(flow);
            done.submit(() -> step.run(flow, true), flow);
            running++;
          }
        }
        if (ranOnCaller) {
          continue;
        }
        if (running == 0) {
          throw new IllegalStateException("flows wait for each other: " + waitsFor);
        }
        finished.add(done.take().get());
        running--;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while flows ran", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Daemon threads that end after ten idle minutes (a continuous run's longest usual trigger interval is shorter). */
  private static ExecutorService flowThreads() {
    AtomicInteger threads = new AtomicInteger();
    return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 10, TimeUnit.MINUTES, new SynchronousQueue<>(), r -> {
      Thread thread = new Thread(r, "sluice-flow-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }

  /** For each flow, the flows before it that write what it reads or write its target. */
  private static Map<ResolvedFlow, List<ResolvedFlow>> dependencies(List<ResolvedFlow> flows) {
    Map<ResolvedFlow, List<ResolvedFlow>> waitsFor = new IdentityHashMap<>();
    for (int i = 0; i < flows.size(); i++) {
      ResolvedFlow flow = flows.get(i);
      List<ResolvedFlow> before = new ArrayList<>();
      for (ResolvedFlow earlier : flows.subList(0, i)) {
        if (flow.inputs().contains(earlier.target()) || flow.target().equals(earlier.target())) {
          before.add(earlier);
        }
      }
      waitsFor.put(flow, before);
    }
    return waitsFor;
  }
}
