package io.sluice.cli;

import io.sluice.session.SparkSessions;
import io.sluice.spec.PipelineSpec;
import org.apache.spark.sql.SparkSession;

/**
 * Where a pipeline command gets its Spark session and what it does with it afterwards. A
 * {@code sluice} process opens its own session for the pipeline and stops it at the end; a
 * caller that already holds a session (a test JVM) lends it and keeps it.
 */
interface SessionSource {
  /** A session of its own for each command, stopped when the command ends. */
  SessionSource OWN = new SessionSource() {
    @Override
    public SparkSession open(PipelineSpec spec) {
      return SparkSessions.open(spec);
    }

    @Override
    public SparkSession openReader(PipelineSpec spec) {
      return SparkSessions.openReader(spec);
    }

    @Override
    public void release(SparkSession spark) {
      spark.stop();
    }
  };

  SparkSession open(PipelineSpec spec);

  /** A session that reads while an update holds the pipeline ({@link SparkSessions#openReader}). */
  SparkSession openReader(PipelineSpec spec);

  void release(SparkSession spark);

  /** {@code spark} for every command, left running. */
  static SessionSource lending(SparkSession spark) {
    return new SessionSource() {
      @Override
      public SparkSession open(PipelineSpec spec) {
        return spark;
      }

      @Override
      public SparkSession openReader(PipelineSpec spec) {
        return spark;
      }

      @Override
      public void release(SparkSession session) {}
    };
  }
}
