package org.apache.hadoop.hive.llap.io.api;

import org.apache.hadoop.hive.serde2.Deserializer;
import org.apache.hadoop.mapred.InputFormat;

/** Stand-in for hive-llap-client's LlapIo: only its type is needed, LlapProxy never returns one. */
public interface LlapIo<T> {
  InputFormat<?, T> getInputFormat(InputFormat<?, ?> sourceInputFormat, Deserializer serde);

  void close();
}
