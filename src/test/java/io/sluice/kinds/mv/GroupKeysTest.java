package io.sluice.kinds.mv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A view's partition columns as its GROUP BY keys, traced to its input's columns (no Spark). */
class GroupKeysTest {
  private final GroupKeys keys = new GroupKeys(List.of("town", "day"), List.of("city", "order_day"));

  @Test
  void partitionColumnsAreTheKeysTheyName() {
    GroupKeys.Traced partitioned = keys.restrictedTo(List.of("DAY", "town"));
    assertNull(partitioned.whyNot());
    assertEquals(List.of("day", "town"), partitioned.keys().viewColumns(), "in the order asked, as the view spells them");
    assertEquals(List.of("order_day", "city"), partitioned.keys().inputColumns());
  }

  @Test
  void aPartitionColumnThatIsNotAKeyIsRefusedByName() {
    GroupKeys.Traced partitioned = keys.restrictedTo(List.of("day", "amount"));
    assertNull(partitioned.keys());
    assertTrue(partitioned.whyNot().contains("partitioned by `amount`, which is not a GROUP BY column"), partitioned.whyNot());
  }
}
