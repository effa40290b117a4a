package io.sluice.testsupport;

import static io.sluice.testsupport.JsonRows.sorted;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A snapshot flow and a change-feed flow sharing one SCD type 1 target (SEMANTICS §5.5):
 * exports 10 and 20 of customers 1-6 (some leave, some come back), and change files whose
 * events sit before, between and after the exports' versions, deletes among them. The table a
 * complete run leaves does not depend on how the two flows' batches interleave: the sequence
 * decides.
 */
public final class SharedTargetPipeline {
  public static final int SNAPSHOTS = 2;
  public static final int CHANGE_FILES = 4;
  /**
   * customers after a complete run, as {@code id|name}, as an uninterrupted run leaves it
   * (recorded from one; which row a customer keeps is decided by sequence, not by the order in
   * which the two flows' batches ran).
   */
  public static final List<String> CUSTOMERS = sorted("1|c34-1", "2|c37-2", "3|c30-3", "4|c33-4", "6|c36-6");

  private SharedTargetPipeline() {}

  /** Writes the pipeline, its exports and its change files into {@code folder}. */
  public static PipelineFolder write(Path folder) {
    PipelineFolder pipeline = PipelineFolder.create(folder, "shared_target").sql("customers.sql", """
        CREATE STREAMING TABLE customers;

        CREATE FLOW backfill AS AUTO CDC INTO customers
        FROM SNAPSHOT (
          SELECT * FROM read_files(concat('snapshots/', string(current_snapshot_version()), '.csv'),
            format => 'csv', header => 'true', schema => 'id INT, name STRING', mode => 'FAILFAST'))
        WITH VERSION (
          SELECT int(replace(name, '.csv', '')) AS version FROM list_files('snapshots')
          WHERE int(replace(name, '.csv', '')) > coalesce(last_snapshot_version(), 0)
          ORDER BY version LIMIT 1)
        KEYS (id);

        CREATE TEMPORARY VIEW customer_changes AS
        SELECT * EXCEPT (_rescued_data) FROM STREAM read_files('landing', format => 'json',
          schema => 'id INT, name STRING, op STRING, seq INT', maxFilesPerTrigger => '1');

        CREATE FLOW changes AS AUTO CDC INTO customers
        FROM STREAM(customer_changes)
        KEYS (id)
        APPLY AS DELETE WHEN op = 'D'
        SEQUENCE BY seq
        COLUMNS * EXCEPT (op, seq);
        """);
    for (int s = 1; s <= SNAPSHOTS; s++) {
      StringBuilder csv = new StringBuilder("id,name\n");
      for (int id = 1; id <= 6; id++) {
        if ((id + s) % 4 != 0) {
          csv.append(id).append(",v").append(s * 10).append("-").append(id).append("\n");
        }
      }
      pipeline.file("snapshots/" + (s * 10) + ".csv", csv.toString());
    }
    int seq = 3;
    for (int f = 1; f <= CHANGE_FILES; f++) {
      List<String> events = new ArrayList<>();
      for (int id = 1; id <= 6; id += 1 + f % 2) {
        seq = (seq * 7 + id) % 37 + 1;
        boolean delete = (id * f) % 5 == 0;
        events.add("{\"id\": " + id + ", \"name\": " + (delete ? "null" : "\"c" + seq + "-" + id + "\"")
            + ", \"op\": \"" + (delete ? "D" : "U") + "\", \"seq\": " + seq + "}");
      }
      pipeline.json(String.format("landing/changes-%02d.json", f), events.toArray(String[]::new));
    }
    return pipeline;
  }
}
