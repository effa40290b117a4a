package io.sluice.kinds.mv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a refresh records in its commit reads back the same, with the group state behind or not. */
class RefreshStateTest {
  private static final Map<String, Long> INPUTS = Map.of("file:/data/orders", 12L);

  @Test
  void aStateThatKeepsUpReadsBackWithoutAStateBehind() {
    RefreshState state = new RefreshState(4, "abc", INPUTS, Optional.empty());
    RefreshState read = RefreshState.parse(state.json());
    assertEquals(state, read);
    assertEquals(4, read.stateRefresh());
    assertEquals(new RefreshState.StateBehind(4, INPUTS, 0, 1_000), read.state(1_000), "the state stands at this refresh");
  }

  @Test
  void aStateBehindReadsBackWithWhereItStands() {
    RefreshState.StateBehind behind = new RefreshState.StateBehind(2, Map.of("file:/data/orders", 9L), 4_096, 1_700_000_000_000L);
    RefreshState state = new RefreshState(4, "abc", INPUTS, Optional.of(behind));
    RefreshState read = RefreshState.parse(state.json());
    assertEquals(state, read);
    assertEquals(2, read.stateRefresh());
    assertEquals(behind, read.state(1_800_000_000_000L), "still behind where it fell behind");
  }
}
