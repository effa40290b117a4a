package io.sluice.testsupport;

import java.util.List;

/**
 * Five snapshots of a customers source (keys added, changed, removed and re-added) and the
 * tables they must give: the fixture shared by the SQL and Java API tests of AUTO CDC FROM SNAPSHOT.
 */
public final class SnapshotExample {
  /** Snapshot n (1 to 5) as JSON lines of {@code id, name, city}. */
  public static final List<String> SNAPSHOTS = List.of(
      rows("1,Ana,Lima", "2,Bo,Oslo", "3,Cy,Rome"),
      rows("1,Ana,Lima", "2,Bo,Bergen", "4,Di,Kyiv"),
      rows("1,Ana,Lima", "2,Bo,Bergen", "3,Cy,Rome", "4,Di,Kyiv"),
      rows("1,Ana Maria,Lima", "2,Bo,Bergen", "3,Cy,Milan"),
      rows("2,Bo,Tromso", "3,Cy,Milan", "4,Di,Kyiv", "5,Ed,Quito"));

  /** SCD type 1 after the five: the last snapshot. */
  public static final List<String> SCD1 = List.of("[2,Bo,Tromso]", "[3,Cy,Milan]", "[4,Di,Kyiv]", "[5,Ed,Quito]");

  /** SCD type 2 after the five, versions 1 to 5 in {@code __START_AT}/{@code __END_AT}. */
  public static final List<String> SCD2 = List.of(
      "[1,Ana Maria,Lima,4,5]", "[1,Ana,Lima,1,4]",
      "[2,Bo,Bergen,2,5]", "[2,Bo,Oslo,1,2]", "[2,Bo,Tromso,5,null]",
      "[3,Cy,Milan,4,null]", "[3,Cy,Rome,1,2]", "[3,Cy,Rome,3,4]",
      "[4,Di,Kyiv,2,4]", "[4,Di,Kyiv,5,null]",
      "[5,Ed,Quito,5,null]");

  /** SCD type 2 tracking only {@code city}: Ana's new name (version 4) updates her version in place. */
  public static final List<String> SCD2_CITY = List.of(
      "[1,Ana Maria,Lima,1,5]",
      "[2,Bo,Bergen,2,5]", "[2,Bo,Oslo,1,2]", "[2,Bo,Tromso,5,null]",
      "[3,Cy,Milan,4,null]", "[3,Cy,Rome,1,2]", "[3,Cy,Rome,3,4]",
      "[4,Di,Kyiv,2,4]", "[4,Di,Kyiv,5,null]",
      "[5,Ed,Quito,5,null]");

  private SnapshotExample() {}

  /** Writes snapshot {@code n} as {@code snapshots/n.json} under the pipeline's folder. */
  public static TestPipeline write(TestPipeline pipeline, int n) {
    return pipeline.write("snapshots/" + n + ".json", SNAPSHOTS.get(n - 1));
  }

  private static String rows(String... rows) {
    StringBuilder json = new StringBuilder();
    for (String row : rows) {
      String[] f = row.split(",");
      json.append("{\"id\": ").append(f[0]).append(", \"name\": \"").append(f[1]).append("\", \"city\": \"")
          .append(f[2]).append("\"}\n");
    }
    return json.toString();
  }
}
