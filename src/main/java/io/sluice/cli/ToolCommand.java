package io.sluice.cli;

/**
 * A subcommand shipped in the tools jar, not in the production one: the benchmarks and the
 * sample data. {@link SluiceCli} adds those it finds on the class path (a
 * {@link java.util.ServiceLoader} service), so the production jar runs without them.
 */
public interface ToolCommand {}
