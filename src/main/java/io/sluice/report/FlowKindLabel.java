package io.sluice.report;

import io.sluice.graph.FlowMode;

/** A flow's kind as the SQL that defines it names it: {@code append}, {@code AUTO CDC SCD 2}, ... */
final class FlowKindLabel implements FlowMode.Visitor<String> {
  static String of(FlowMode mode) {
    return mode.accept(new FlowKindLabel());
  }

  @Override
  public String append(FlowMode.Append mode) {
    return "append";
  }

  @Override
  public String replaceUsing(FlowMode.ReplaceUsing mode) {
    return "REPLACE USING";
  }

  @Override
  public String replaceWhere(FlowMode.ReplaceWhere mode) {
    return "REPLACE WHERE";
  }

  @Override
  public String autoCdc(FlowMode.AutoCdc mode) {
    return "AUTO CDC SCD " + mode.scdType();
  }

  @Override
  public String autoCdcFromSnapshot(FlowMode.AutoCdcFromSnapshot mode) {
    return "AUTO CDC FROM SNAPSHOT SCD " + mode.scdType();
  }
}
