package tjhive;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Schema;
import org.apache.hadoop.hive.ql.Driver;
import org.apache.hadoop.hive.ql.metadata.Hive;
import org.apache.hadoop.hive.ql.metadata.Table;
import org.apache.hadoop.hive.ql.processors.CommandProcessor;
import org.apache.hadoop.hive.ql.processors.CommandProcessorFactory;
import org.apache.hadoop.hive.ql.processors.CommandProcessorResponse;
import org.apache.hadoop.hive.ql.session.SessionState;

/**
 * One long-lived Hive 2.3 session: HiveQL through org.apache.hadoop.hive.ql.Driver, MapReduce
 * in local mode (LocalJobRunner, in this JVM), an embedded Derby metastore.
 *
 * <p>Usage: {@code java ... tjhive.HiveRunner <settings.properties>}. Every setting is applied
 * to the session's HiveConf. Requests arrive on stdin, one JSON object a line; each gets one
 * JSON line on stdout. Everything else Hive prints (console messages, logs) goes to stderr, so
 * stdout carries only the protocol:
 *
 * <pre>
 *   -> {"id": 1, "op": "run", "sql": "select 1", "vars": {"db": "x"}}
 *   <- {"id": 1, "ok": true, "columns": ["_c0"], "types": ["int"], "rows": [["1"]], "ms": 12}
 *   <- {"id": 1, "ok": false, "code": 10, "sqlstate": "42000", "error": "FAILED: ...", "cause": "..."}
 *   -> {"id": 2, "op": "table", "db": "default", "name": "t"}
 *   <- {"id": 2, "ok": true, "location": "file:/...", "columns": [["a", "bigint"]]}
 *   -> {"id": 3, "op": "quit"}
 * </pre>
 *
 * Rows of "run" are Hive's own text rendering (tab-separated fields, NULL for null): for
 * display only. Typed results are read from the files of a table (see engine.py).
 */
public final class HiveRunner {
  private final Gson gson = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();
  private final PrintStream protocol;
  private final HiveConf conf;
  private final SessionState session;
  private final Driver driver;

  /** Not a Hive setting: where the default database lives, written into a copied metastore. */
  static final String DEFAULT_DB_LOCATION = "tj.metastore.default.location";

  private HiveRunner(PrintStream protocol, Properties settings) {
    this.protocol = protocol;
    this.conf = new HiveConf(SessionState.class);
    for (String key : settings.stringPropertyNames()) {
      if (key.startsWith("tj.")) {
        continue;
      }
      conf.set(key, settings.getProperty(key));
    }
    session = new SessionState(conf, System.getProperty("user.name"));
    session.out = System.err;
    session.info = System.err;
    session.err = System.err;
    SessionState.start(session);
    driver = new Driver(conf);
  }

  public static void main(String[] args) throws Exception {
    long mainStart = System.currentTimeMillis();
    long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
    // Keep stdout for the protocol; whatever else writes to System.out lands in the log.
    PrintStream protocol =
        new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    System.setOut(System.err);

    Properties settings = new Properties();
    try (Reader in = Files.newBufferedReader(Paths.get(args[0]), StandardCharsets.UTF_8)) {
      settings.load(in);
    }
    String location = settings.getProperty(DEFAULT_DB_LOCATION);
    if (location != null) {
      relocateDatabases(settings.getProperty("javax.jdo.option.ConnectionURL"), location);
    }
    HiveRunner runner = new HiveRunner(protocol, settings);
    long sessionReady = System.currentTimeMillis();
    // The first statement connects the metastore (creating Derby's schema when it is new) and
    // loads the function registry: pay for it before saying ready.
    Map<String, Object> warmup = runner.run("show databases", Map.of());
    long warm = System.currentTimeMillis();
    Map<String, Object> ready = new LinkedHashMap<>();
    ready.put("event", "ready");
    ready.put("ok", warmup.get("ok"));
    ready.put("error", warmup.get("error"));
    ready.put("pid", ProcessHandle.current().pid());
    ready.put("jvm_to_main_ms", mainStart - jvmStart);
    ready.put("session_ms", sessionReady - mainStart);
    ready.put("first_statement_ms", warm - sessionReady);
    runner.reply(ready);
    if (!Boolean.TRUE.equals(warmup.get("ok"))) {
      System.exit(3);
    }
    runner.serve();
  }

  /**
   * A metastore copied from the build's template still records the template's warehouse as its
   * databases' locations (default, and the results database the template's engine made), and
   * Hive 2.3 has no ALTER DATABASE ... SET LOCATION (3.0 has): rewrite the rows before Hive opens
   * the metastore, so that no two engines write tables into the same folder.
   */
  private static void relocateDatabases(String url, String location) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement names = c.prepareStatement("SELECT NAME FROM DBS");
        PreparedStatement update =
            c.prepareStatement("UPDATE DBS SET DB_LOCATION_URI = ? WHERE NAME = ?")) {
      List<String> databases = new ArrayList<>();
      try (ResultSet rows = names.executeQuery()) {
        while (rows.next()) {
          databases.add(rows.getString(1));
        }
      }
      if (!databases.contains("default")) {
        throw new SQLException("no default database in " + url);
      }
      for (String name : databases) {
        // Hive's own layout: the default database is the warehouse, any other its <name>.db
        update.setString(1, name.equals("default") ? location : location + "/" + name + ".db");
        update.setString(2, name);
        update.executeUpdate();
      }
    }
  }

  private void serve() throws Exception {
    BufferedReader in =
        new BufferedReader(
            new InputStreamReader(new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) {
        continue;
      }
      JsonObject request = JsonParser.parseString(line).getAsJsonObject();
      String op = request.get("op").getAsString();
      Map<String, Object> response;
      try {
        switch (op) {
          case "run":
            response = run(request.get("sql").getAsString(), vars(request.get("vars")));
            break;
          case "table":
            response =
                table(request.get("db").getAsString(), request.get("name").getAsString());
            break;
          case "quit":
            response = new LinkedHashMap<>();
            response.put("ok", true);
            response.put("id", request.get("id"));
            shutdown();
            reply(response);
            System.exit(0);
            return;
          default:
            throw new IllegalArgumentException("unknown op " + op);
        }
      } catch (Throwable t) { // report, never die on a bad statement
        response = failure(-1, null, t.toString(), t);
      }
      response.put("id", request.get("id"));
      reply(response);
    }
    shutdown(); // stdin closed: the Python side is gone
  }

  private static Map<String, String> vars(JsonElement element) {
    Map<String, String> out = new LinkedHashMap<>();
    if (element != null && element.isJsonObject()) {
      for (Map.Entry<String, JsonElement> e : element.getAsJsonObject().entrySet()) {
        out.put(e.getKey(), e.getValue().getAsString());
      }
    }
    return out;
  }

  /** One statement, as Hive's CLI runs it: set/add/reset/... by their processors, SQL by the Driver. */
  private Map<String, Object> run(String sql, Map<String, String> hivevars) throws Exception {
    long start = System.currentTimeMillis();
    session.getHiveVariables().putAll(hivevars);
    String statement = sql.trim();
    String[] tokens = statement.split("\\s+");
    CommandProcessor processor = CommandProcessorFactory.getForHiveCommand(tokens, conf);
    List<String> columns = new ArrayList<>();
    List<String> types = new ArrayList<>();
    List<List<String>> rows = new ArrayList<>();
    CommandProcessorResponse response;
    if (processor == null) {
      response = driver.run(statement);
      if (response.getResponseCode() == 0) {
        Schema schema = driver.getSchema();
        if (schema != null && schema.getFieldSchemas() != null) {
          for (FieldSchema field : schema.getFieldSchemas()) {
            columns.add(field.getName());
            types.add(field.getType());
          }
        }
        List<Object> batch = new ArrayList<>();
        while (driver.getResults(batch)) {
          for (Object row : batch) {
            rows.add(Arrays.asList(row.toString().split("\t", -1)));
          }
          batch.clear();
        }
      }
      driver.close();
    } else {
      response = processor.run(statement.substring(tokens[0].length()).trim());
    }
    if (response.getResponseCode() != 0) {
      return failure(
          response.getResponseCode(),
          response.getSQLState(),
          response.getErrorMessage(),
          response.getException());
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("ok", true);
    out.put("columns", columns);
    out.put("types", types);
    out.put("rows", rows);
    out.put("ms", System.currentTimeMillis() - start);
    return out;
  }

  /** Where a table's files are and its columns' Hive types, from the metastore. */
  private Map<String, Object> table(String db, String name) throws Exception {
    Table table = Hive.get(conf).getTable(db, name);
    List<List<String>> columns = new ArrayList<>();
    for (FieldSchema field : table.getCols()) {
      columns.add(List.of(field.getName(), field.getType()));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("ok", true);
    out.put("location", table.getDataLocation().toString());
    out.put("columns", columns);
    return out;
  }

  private static Map<String, Object> failure(int code, String sqlState, String message, Throwable t) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("ok", false);
    out.put("code", code);
    out.put("sqlstate", sqlState);
    out.put("error", message);
    Throwable root = t;
    while (root != null && root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    out.put("cause", root == null ? null : root.toString());
    return out;
  }

  private void reply(Map<String, Object> message) {
    protocol.println(gson.toJson(message));
    protocol.flush();
  }

  /** Close the session and shut Derby down cleanly, so its files can be copied as a template. */
  private void shutdown() {
    try {
      driver.destroy();
      session.close();
      Hive.closeCurrent();
    } catch (Exception e) {
      e.printStackTrace();
    }
    try {
      DriverManager.getConnection("jdbc:derby:;shutdown=true");
    } catch (SQLException expected) {
      // Derby reports a successful system shutdown as SQLState XJ015
    }
  }
}
