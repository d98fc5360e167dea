package org.apache.hadoop.hive.llap.io.api;

/**
 * Stand-in for hive-llap-client's LlapProxy, which no PyPI package ships. hive-exec asks it
 * whether it runs inside an LLAP daemon and for the LLAP IO layer; outside LLAP the answers
 * are "no" and "none", and hive-exec then takes its plain MapReduce paths.
 */
public final class LlapProxy {
  private LlapProxy() {}

  public static boolean isDaemon() {
    return false;
  }

  public static LlapIo<?> getIo() {
    return null;
  }
}
