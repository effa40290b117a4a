package io.sluice.testsupport;

import java.util.List;

/** The documents' users example (SEMANTICS §4): its change rows and the SCD 1 and 2 tables they give. */
public final class UsersExample {
  /** All eight change rows: inserts, a delete at sequence 6, late updates at sequence 5. */
  public static final String EVENTS = "(124, 'Raul', 'Oaxaca', 'INSERT', 1), (123, 'Isabel', 'Monterrey', 'INSERT', 1), "
      + "(125, 'Mercedes', 'Tijuana', 'INSERT', 2), (126, 'Lily', 'Cancun', 'INSERT', 2), "
      + "(123, null, null, 'DELETE', 6), (125, 'Mercedes', 'Guadalajara', 'UPDATE', 6), "
      + "(125, 'Mercedes', 'Mexicali', 'UPDATE', 5), (123, 'Isabel', 'Chihuahua', 'UPDATE', 5)";
  public static final List<String> SCD1 = List.of("[124,Raul,Oaxaca]", "[125,Mercedes,Guadalajara]", "[126,Lily,Cancun]");
  public static final List<String> SCD2 = List.of(
      "[123,Isabel,Chihuahua,5,6]", "[123,Isabel,Monterrey,1,5]",
      "[124,Raul,Oaxaca,1,null]",
      "[125,Mercedes,Guadalajara,6,null]", "[125,Mercedes,Mexicali,5,6]", "[125,Mercedes,Tijuana,2,5]",
      "[126,Lily,Cancun,2,null]");

  private UsersExample() {}

  /** Creates the pipeline's source table {@code users_cdc}, empty. */
  public static TestPipeline withSource(TestPipeline p) {
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + p.database());
    p.spark().sql("CREATE TABLE " + p.database()
        + ".users_cdc (userId INT, name STRING, city STRING, operation STRING, sequenceNum INT) USING delta");
    return p;
  }

  public static void insert(TestPipeline p, String values) {
    p.spark().sql("INSERT INTO " + p.database() + ".users_cdc VALUES " + values);
  }
}
