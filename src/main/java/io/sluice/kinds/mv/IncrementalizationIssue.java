package io.sluice.kinds.mv;

/**
 * Why a technique cannot refresh a view: a stable type ({@code NON_DETERMINISTIC_EXPRESSION},
 * {@code INPUT_REWRITTEN}, ...) and the reason in words, naming the operator, expression or input.
 */
record IncrementalizationIssue(String type, String reason) {
  static final String NON_DETERMINISTIC_EXPRESSION = "NON_DETERMINISTIC_EXPRESSION";
  static final String INPUT_NOT_DELTA = "INPUT_NOT_DELTA";
  static final String OPERATOR_NOT_SUPPORTED = "OPERATOR_NOT_SUPPORTED";
  static final String AGGREGATE_NOT_SUPPORTED = "AGGREGATE_NOT_SUPPORTED";
  static final String EXPECTATION_DROPS_ROWS = "EXPECTATION_DROPS_ROWS";
  static final String NO_PREVIOUS_REFRESH = "NO_PREVIOUS_REFRESH";
  static final String DEFINITION_CHANGED = "DEFINITION_CHANGED";
  static final String VIEW_CHANGED_OUTSIDE_REFRESH = "VIEW_CHANGED_OUTSIDE_REFRESH";
  static final String VIEW_NOT_KEYED_WRITABLE = "VIEW_NOT_KEYED_WRITABLE";
  static final String INPUT_REWRITTEN = "INPUT_REWRITTEN";
  static final String INPUT_VERSIONS_GONE = "INPUT_VERSIONS_GONE";
  static final String CHANGESET_SIZE_THRESHOLD_EXCEEDED = "CHANGESET_SIZE_THRESHOLD_EXCEEDED";
  static final String REFRESH_POLICY_FULL = "REFRESH_POLICY_FULL";
  static final String INPUTS_UNCHANGED = "INPUTS_UNCHANGED";
  static final String INPUTS_CHANGED = "INPUTS_CHANGED";
  static final String STATE_NOT_KEPT = "STATE_NOT_KEPT";
  static final String VIEW_KEEPS_NO_STATE = "VIEW_KEEPS_NO_STATE";
  static final String GROUP_STATE_KEPT = "GROUP_STATE_KEPT";
}
