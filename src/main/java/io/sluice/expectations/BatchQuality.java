package io.sluice.expectations;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The data-quality figures of one batch (SEMANTICS §6.3).
 *
 * @param inputRows rows the flow's query produced
 * @param droppedRows rows removed by DROP expectations
 * @param rescuedRows rows whose {@value #RESCUED_DATA_COLUMN} is set: some of their input did not parse
 */
public record BatchQuality(long inputRows, long droppedRows, long rescuedRows, List<ExpectationResult> expectations) {
  /** The column where read_files keeps what did not parse; a batch that has it is counted by it. */
  public static final String RESCUED_DATA_COLUMN = "_rescued_data";

  public BatchQuality {
    expectations = List.copyOf(expectations);
  }

  public long outputRows() {
    return inputRows - droppedRows;
  }

  /** The {@code data_quality} object of a flow_progress event. */
  public Map<String, Object> toDetails() {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("dropped_records", droppedRows);
    details.put("rescued_records", rescuedRows);
    details.put("expectations", expectations.stream().map(e -> {
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("name", e.name());
      item.put("dataset", e.dataset());
      item.put("passed_records", e.passedRecords());
      item.put("failed_records", e.failedRecords());
      return item;
    }).toList());
    return details;
  }
}
