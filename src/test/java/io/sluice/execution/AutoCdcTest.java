package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.TestPipeline;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AUTO CDC flows through the real engine (SEMANTICS §4). */
class AutoCdcTest {
  static final String USERS = """
      CREATE STREAMING TABLE users_scd1;
      CREATE FLOW users_scd1_flow AS AUTO CDC INTO users_scd1
      FROM STREAM(users_cdc)
      KEYS (userId)
      APPLY AS DELETE WHEN operation = "DELETE"
      SEQUENCE BY sequenceNum
      COLUMNS * EXCEPT (operation, sequenceNum)
      STORED AS SCD TYPE 1;

      CREATE STREAMING TABLE users_scd2;
      CREATE FLOW users_scd2_flow AS AUTO CDC INTO users_scd2
      FROM STREAM(users_cdc)
      KEYS (userId)
      APPLY AS DELETE WHEN operation = "DELETE"
      SEQUENCE BY sequenceNum
      COLUMNS * EXCEPT (operation, sequenceNum)
      STORED AS SCD TYPE 2;
      """;

  @TempDir Path dir;

  private TestPipeline pipeline(String definitions) {
    TestPipeline p = new TestPipeline(dir).sql(definitions);
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + p.database());
    p.spark().sql("CREATE TABLE " + p.database()
        + ".users_cdc (userId INT, name STRING, city STRING, operation STRING, sequenceNum INT) USING delta");
    return p;
  }

  private static void insert(TestPipeline p, String values) {
    p.spark().sql("INSERT INTO " + p.database() + ".users_cdc VALUES " + values);
  }

  private static void runOk(TestPipeline p) {
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
  }

  @Test
  void theDocumentedUsersExample() {
    TestPipeline p = pipeline(USERS);
    insert(p, "(124, 'Raul', 'Oaxaca', 'INSERT', 1), (123, 'Isabel', 'Monterrey', 'INSERT', 1), "
        + "(125, 'Mercedes', 'Tijuana', 'INSERT', 2), (126, 'Lily', 'Cancun', 'INSERT', 2), "
        + "(123, null, null, 'DELETE', 6), (125, 'Mercedes', 'Guadalajara', 'UPDATE', 6), "
        + "(125, 'Mercedes', 'Mexicali', 'UPDATE', 5), (123, 'Isabel', 'Chihuahua', 'UPDATE', 5)");
    runOk(p);
    assertEquals(List.of("[124,Raul,Oaxaca]", "[125,Mercedes,Guadalajara]", "[126,Lily,Cancun]"),
        p.rows("SELECT * FROM users_scd1"));
    assertEquals(List.of(
            "[123,Isabel,Chihuahua,5,6]", "[123,Isabel,Monterrey,1,5]",
            "[124,Raul,Oaxaca,1,null]",
            "[125,Mercedes,Guadalajara,6,null]", "[125,Mercedes,Mexicali,5,6]", "[125,Mercedes,Tijuana,2,5]",
            "[126,Lily,Cancun,2,null]"),
        p.rows("SELECT * FROM users_scd2"));
  }

  @Test
  void lateEventsInLaterBatchesLandWhereTheyBelong() {
    TestPipeline p = pipeline(USERS);
    insert(p, "(124, 'Raul', 'Oaxaca', 'INSERT', 1), (123, 'Isabel', 'Monterrey', 'INSERT', 1), "
        + "(125, 'Mercedes', 'Tijuana', 'INSERT', 2), (126, 'Lily', 'Cancun', 'INSERT', 2)");
    runOk(p);
    insert(p, "(123, null, null, 'DELETE', 6), (125, 'Mercedes', 'Guadalajara', 'UPDATE', 6)");
    runOk(p);
    insert(p, "(125, 'Mercedes', 'Mexicali', 'UPDATE', 5), (123, 'Isabel', 'Chihuahua', 'UPDATE', 5)");
    runOk(p);
    assertEquals(List.of("[124,Raul,Oaxaca]", "[125,Mercedes,Guadalajara]", "[126,Lily,Cancun]"),
        p.rows("SELECT * FROM users_scd1"));
    assertEquals(List.of(
            "[123,Isabel,Chihuahua,5,6]", "[123,Isabel,Monterrey,1,5]",
            "[124,Raul,Oaxaca,1,null]",
            "[125,Mercedes,Guadalajara,6,null]", "[125,Mercedes,Mexicali,5,6]", "[125,Mercedes,Tijuana,2,5]",
            "[126,Lily,Cancun,2,null]"),
        p.rows("SELECT * FROM users_scd2"));
  }
}
