package io.sluice.kinds.mv;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One technique as a refresh's planning weighed it: whether it applied, whether it was chosen,
 * its estimated cost (bytes read), and why it did not apply.
 */
record TechniqueInfo(Technique technique, boolean applicable, boolean chosen, OptionalLong cost,
    List<IncrementalizationIssue> issues) {
  TechniqueInfo {
    issues = List.copyOf(issues);
  }

  TechniqueInfo asChosen() {
    return new TechniqueInfo(technique, applicable, true, cost, issues);
  }

  /** As Lakeflow's {@code planning_information.technique_information[]} holds it. */
  Map<String, Object> details() {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("maintenance_type", technique.maintenanceType());
    details.put("is_applicable", applicable);
    details.put("is_chosen", chosen);
    cost.ifPresent(c -> details.put("cost", c));
    if (!issues.isEmpty()) {
      details.put("incrementalization_issues", issues.stream().map(i -> {
        Map<String, Object> issue = new LinkedHashMap<>();
        issue.put("issue_type", i.type());
        issue.put("reason", i.reason());
        return issue;
      }).toList());
    }
    return details;
  }
}
