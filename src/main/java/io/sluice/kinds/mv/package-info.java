/**
 * Materialized views: how each update refreshes one, incrementally when it can. A
 * {@link io.sluice.kinds.mv.RefreshPlanner} reads what changed in the view's inputs since its last
 * refresh and picks a {@link io.sluice.kinds.mv.Technique}; the
 * {@link io.sluice.kinds.mv.MaterializedViewExecutor} applies it and commits the view's rows with
 * its {@link io.sluice.kinds.mv.RefreshState} in one Delta commit (docs/sql.md, "How a
 * materialized view refreshes"; SEMANTICS §7.2.1).
 */
package io.sluice.kinds.mv;
