package io.sluice.execution;

import io.sluice.api.Pipeline;
import io.sluice.api.PipelineDefinition;
import io.sluice.api.Snapshot;
import io.sluice.api.SnapshotFunction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The five snapshots of {@link io.sluice.testsupport.SnapshotExample} through the Java API: a
 * function that reads {@code snapshots/n.json} for the version after the last one, if present.
 * The pipeline folder comes from the system property {@code sluice.test.snapshots}.
 */
public class SnapshotDefinitions implements PipelineDefinition {
  static final String FOLDER = "sluice.test.snapshots";

  @Override
  public void define(Pipeline pipeline) {
    Path folder = Path.of(System.getProperty(FOLDER));
    pipeline.streamingTable("customers").schema("id INT, name STRING, city STRING").create();
    pipeline.autoCdcFromSnapshotFlow("customers_flow").into("customers")
        .source(Long.class, numberedFiles(folder))
        .keys("id")
        .create();

    pipeline.streamingTable("customers_by_city")
        .schema("id INT, name STRING, city STRING, __START_AT BIGINT, __END_AT BIGINT").create();
    pipeline.autoCdcFromSnapshotFlow("customers_by_city_flow").into("customers_by_city")
        .keys("id")
        .storedAsScdType(2)
        .trackHistoryOn("city")
        .source(Long.class, numberedFiles(folder))
        .create();
  }

  /** Snapshot n is {@code snapshots/n.json}, read when the version before it was the last one applied. */
  private static SnapshotFunction<Long> numberedFiles(Path folder) {
    return (ctx, last) -> {
      long next = last.map(v -> v + 1).orElse(1L);
      Path file = folder.resolve("snapshots/" + next + ".json");
      return Files.exists(file)
          ? Optional.of(Snapshot.of(ctx.spark().read().schema("id INT, name STRING, city STRING").json(file.toString()), next))
          : Optional.empty();
    };
  }
}
