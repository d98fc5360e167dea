package tjbench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.FlatMapFunction2;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter;
import org.apache.spark.sql.classic.Dataset;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * A benchmark prototype, not part of the package: a backward as-of left join (for each left row, the
 * right row of the same key with the greatest time at or before the left row's time) as one
 * per-partition merge on the JVM, for Spark 4.x classic sessions (called through py4j).
 *
 * <p>Both sides are hash-partitioned by the key into the same number of partitions (no sort: the same
 * HashPartitioning puts a key in the same partition index on both sides), their partitions zipped, and
 * each pair joined in memory: the rows are read into primitive arrays, sorted by (key, time) with a
 * merge sort of parallel arrays, and walked once. No global sort, no window.
 *
 * <p>Specialised to a bigint key and a bigint (or timestamp) time, the same type on both sides. Other
 * columns are carried as they are: boolean, byte, short, int, date, bigint, timestamp, float, double,
 * decimal, string and binary. A left row whose key or time is null matches nothing; right rows whose key
 * or time is null are ignored; a matched right row whose columns are null gives those nulls (no fill
 * from older rows). Output: the left columns as they are, then the right time and the right's other
 * columns (not the key), each named with a prefix ("r_" by default).
 *
 * <p>Limits of a prototype: a partition of each side is held in memory, outside Spark's memory manager
 * (so not in its peak execution memory metric, and never spilled); nothing is reported to the SQL UI.
 */
public final class AsofMerge {
  private AsofMerge() {}

  public static Dataset<Row> join(
      SparkSession spark, Dataset<Row> left, Dataset<Row> right, String key, String time, int partitions) {
    return join(spark, left, right, key, time, partitions, "r_");
  }

  public static Dataset<Row> join(
      SparkSession spark,
      Dataset<Row> left,
      Dataset<Row> right,
      String key,
      String time,
      int partitions,
      String prefix) {
    StructType ls = left.schema();
    StructType rs = right.schema();
    int lk = ls.fieldIndex(key), lt = ls.fieldIndex(time);
    int rk = rs.fieldIndex(key), rt = rs.fieldIndex(time);
    requireKey(ls.fields()[lk].dataType(), rs.fields()[rk].dataType(), key);
    requireTime(ls.fields()[lt].dataType(), rs.fields()[rt].dataType(), time);

    DataType[] leftTypes = types(ls);
    // the right columns carried: the time first, then every other column but the key
    List<Integer> carried = new ArrayList<>();
    carried.add(rt);
    for (int i = 0; i < rs.size(); i++) {
      if (i != rk && i != rt) carried.add(i);
    }
    int[] rightOrdinals = carried.stream().mapToInt(Integer::intValue).toArray();
    DataType[] rightTypes = new DataType[rightOrdinals.length];
    List<StructField> fields = new ArrayList<>(Arrays.asList(ls.fields()));
    for (int c = 0; c < rightOrdinals.length; c++) {
      StructField f = rs.fields()[rightOrdinals[c]];
      rightTypes[c] = f.dataType();
      fields.add(new StructField(prefix + f.name(), f.dataType(), true, Metadata.empty()));
    }
    for (DataType t : leftTypes) Kind.of(t); // unsupported types fail here, not in a task
    for (DataType t : rightTypes) Kind.of(t);

    // the same HashPartitioning (bigint key, same count) on both sides: partition i holds the same keys.
    // AQE never coalesces a repartition to a given count, so both keep `partitions` (checked below); with
    // AQE on, toRdd() runs the two shuffles now, the merge runs when the DataFrame is read
    RDD<InternalRow> l = left.repartition(partitions, left.col(key)).queryExecution().toRdd();
    RDD<InternalRow> r = right.repartition(partitions, right.col(key)).queryExecution().toRdd();
    if (l.getNumPartitions() != r.getNumPartitions()) {
      throw new IllegalStateException(
          "the two sides have " + l.getNumPartitions() + " and " + r.getNumPartitions() + " partitions");
    }
    ClassTag<InternalRow> tag = ClassTag$.MODULE$.apply(InternalRow.class);
    PartitionMerge merge = new PartitionMerge(lk, lt, leftTypes, rk, rightOrdinals, rightTypes);
    JavaRDD<InternalRow> joined = JavaRDD.fromRDD(l, tag).zipPartitions(JavaRDD.fromRDD(r, tag), merge);
    StructType schema = new StructType(fields.toArray(new StructField[0]));
    return spark.internalCreateDataFrame(joined.rdd(), schema, false);
  }

  private static void requireKey(DataType l, DataType r, String name) {
    if (!(l instanceof LongType) || !(r instanceof LongType)) {
      throw new IllegalArgumentException(
          "key " + name + " must be bigint on both sides, not " + l + " / " + r);
    }
  }

  private static void requireTime(DataType l, DataType r, String name) {
    boolean longBacked = l instanceof LongType || l instanceof TimestampType || l instanceof TimestampNTZType;
    if (!longBacked || !l.equals(r)) {
      throw new IllegalArgumentException(
          "time " + name + " must be bigint or timestamp, the same on both sides, not " + l + " / " + r);
    }
  }

  private static DataType[] types(StructType schema) {
    DataType[] out = new DataType[schema.size()];
    for (int i = 0; i < out.length; i++) out[i] = schema.fields()[i].dataType();
    return out;
  }

  /** Joins partition i of the left with partition i of the right. */
  static final class PartitionMerge
      implements FlatMapFunction2<Iterator<InternalRow>, Iterator<InternalRow>, InternalRow> {
    private static final long serialVersionUID = 1L;
    private final int leftKey, leftTime, rightKey;
    private final DataType[] leftTypes, rightTypes;
    private final int[] rightOrdinals; // rightOrdinals[0] is the right time

    PartitionMerge(
        int leftKey, int leftTime, DataType[] leftTypes, int rightKey, int[] rightOrdinals, DataType[] rightTypes) {
      this.leftKey = leftKey;
      this.leftTime = leftTime;
      this.leftTypes = leftTypes;
      this.rightKey = rightKey;
      this.rightOrdinals = rightOrdinals;
      this.rightTypes = rightTypes;
    }

    @Override
    public Iterator<InternalRow> call(Iterator<InternalRow> leftRows, Iterator<InternalRow> rightRows) {
      // the right side first: all of it is needed before the first left row can be answered
      Side right = Side.right(rightRows, rightKey, rightOrdinals, rightTypes);
      Side left = Side.left(leftRows, leftKey, leftTime, leftTypes);
      return new Output(left, right);
    }
  }

  /**
   * One side of a partition: its columns (in the order they were read) and, for the rows with a key and a
   * time, those two and the row's index sorted by (key, time) in parallel arrays.
   */
  static final class Side {
    Column[] columns;
    int rows;
    long[] keys = new long[16], times = new long[16];
    int[] index = new int[16];
    int sorted; // rows with a key and a time: the first `sorted` entries of keys/times/index

    /** Right rows without a key or a time can never match: not kept. The time is column 0. */
    static Side right(Iterator<InternalRow> it, int key, int[] ordinals, DataType[] types) {
      Side s = new Side();
      s.columns = Column.of(types);
      int time = ordinals[0];
      while (it.hasNext()) {
        InternalRow row = it.next(); // a reused object: read now
        if (row.isNullAt(key) || row.isNullAt(time)) continue;
        s.grow();
        int i = s.rows++;
        s.keys[i] = row.getLong(key);
        s.times[i] = row.getLong(time);
        s.index[i] = i;
        for (int c = 0; c < ordinals.length; c++) s.columns[c].read(row, ordinals[c], i);
      }
      s.sorted = s.rows;
      s.sort();
      return s;
    }

    /** Every left row is kept (a left join); the ones without a key or a time go after the sorted ones. */
    static Side left(Iterator<InternalRow> it, int key, int time, DataType[] types) {
      Side s = new Side();
      s.columns = Column.of(types);
      int[] unmatched = new int[0];
      int nUnmatched = 0;
      while (it.hasNext()) {
        InternalRow row = it.next();
        s.grow();
        int i = s.rows++;
        for (int c = 0; c < types.length; c++) s.columns[c].read(row, c, i);
        if (row.isNullAt(key) || row.isNullAt(time)) {
          if (nUnmatched == unmatched.length) {
            unmatched = Arrays.copyOf(unmatched, Math.max(16, nUnmatched * 2));
          }
          unmatched[nUnmatched++] = i;
          continue;
        }
        int j = s.sorted++;
        s.keys[j] = row.getLong(key);
        s.times[j] = row.getLong(time);
        s.index[j] = i;
      }
      s.sort();
      System.arraycopy(unmatched, 0, s.index, s.sorted, nUnmatched);
      return s;
    }

    private void grow() {
      if (rows < index.length) return;
      int capacity = index.length + (index.length >> 1);
      keys = Arrays.copyOf(keys, capacity);
      times = Arrays.copyOf(times, capacity);
      index = Arrays.copyOf(index, capacity);
      for (Column c : columns) c.grow(capacity);
    }

    private void sort() {
      int n = sorted;
      Sort.mergeSort(
          Arrays.copyOf(keys, n), Arrays.copyOf(times, n), Arrays.copyOf(index, n), keys, times, index, 0, n);
    }
  }

  /** Merge sort of (key, time, index) in parallel arrays by (key, time); no boxing, no comparator. */
  static final class Sort {
    private static final int INSERTION = 24;

    /**
     * Sorts [lo, hi) into the d arrays, using the s arrays as scratch; both must hold the same rows in
     * [lo, hi) on entry (each level sorts its halves into the other pair, then merges back).
     */
    static void mergeSort(long[] sk, long[] st, int[] si, long[] dk, long[] dt, int[] di, int lo, int hi) {
      if (hi - lo <= INSERTION) {
        insertionSort(dk, dt, di, lo, hi);
        return;
      }
      int mid = (lo + hi) >>> 1;
      mergeSort(dk, dt, di, sk, st, si, lo, mid);
      mergeSort(dk, dt, di, sk, st, si, mid, hi);
      if (!less(sk[mid], st[mid], sk[mid - 1], st[mid - 1])) { // already in order (sorted input): copy
        System.arraycopy(sk, lo, dk, lo, hi - lo);
        System.arraycopy(st, lo, dt, lo, hi - lo);
        System.arraycopy(si, lo, di, lo, hi - lo);
        return;
      }
      for (int out = lo, a = lo, b = mid; out < hi; out++) {
        if (b >= hi || (a < mid && !less(sk[b], st[b], sk[a], st[a]))) {
          dk[out] = sk[a];
          dt[out] = st[a];
          di[out] = si[a++];
        } else {
          dk[out] = sk[b];
          dt[out] = st[b];
          di[out] = si[b++];
        }
      }
    }

    private static void insertionSort(long[] k, long[] t, int[] idx, int lo, int hi) {
      for (int i = lo + 1; i < hi; i++) {
        long key = k[i], time = t[i];
        int row = idx[i];
        int j = i - 1;
        while (j >= lo && less(key, time, k[j], t[j])) {
          k[j + 1] = k[j];
          t[j + 1] = t[j];
          idx[j + 1] = idx[j];
          j--;
        }
        k[j + 1] = key;
        t[j + 1] = time;
        idx[j + 1] = row;
      }
    }

    static boolean less(long k1, long t1, long k2, long t2) {
      return k1 < k2 || (k1 == k2 && t1 < t2);
    }
  }

  /**
   * The output rows, made while walking the sorted left rows: the right cursor only moves forward.
   *
   * <p>One UnsafeRow is rewritten for every output row: this RDD's only reader is the DataFrame's
   * RDDScanExec, which projects each row before asking for the next.
   */
  static final class Output implements Iterator<InternalRow> {
    private final Side left, right;
    private final int leftColumns;
    private final UnsafeRowWriter writer;
    private int next, cursor;

    Output(Side left, Side right) {
      this.left = left;
      this.right = right;
      this.leftColumns = left.columns.length;
      this.writer = new UnsafeRowWriter(leftColumns + right.columns.length, 64);
    }

    @Override
    public boolean hasNext() {
      return next < left.rows;
    }

    @Override
    public InternalRow next() {
      if (next >= left.rows) throw new NoSuchElementException();
      int at = next++;
      int match = -1;
      if (at < left.sorted) {
        long key = left.keys[at], time = left.times[at];
        long[] rk = right.keys, rt = right.times;
        int c = cursor, n = right.sorted;
        while (c < n && (rk[c] < key || (rk[c] == key && rt[c] <= time))) c++;
        cursor = c;
        if (c > 0 && rk[c - 1] == key) match = right.index[c - 1];
      }
      int row = left.index[at];
      writer.reset();
      writer.zeroOutNullBytes();
      for (int c = 0; c < leftColumns; c++) left.columns[c].write(writer, c, row);
      Column[] rc = right.columns;
      for (int c = 0; c < rc.length; c++) {
        if (match < 0) rc[c].writeNull(writer, leftColumns + c);
        else rc[c].write(writer, leftColumns + c, match);
      }
      return writer.getRow();
    }
  }

  /** How a column is stored: the smallest primitive array that holds it, else its objects. */
  enum Kind {
    BOOLEAN, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, STRING, BINARY, DECIMAL;

    static Kind of(DataType t) {
      if (t instanceof BooleanType) return BOOLEAN;
      if (t instanceof ByteType) return BYTE;
      if (t instanceof ShortType) return SHORT;
      if (t instanceof IntegerType || t instanceof DateType) return INT;
      if (t instanceof LongType || t instanceof TimestampType || t instanceof TimestampNTZType) return LONG;
      if (t instanceof FloatType) return FLOAT;
      if (t instanceof DoubleType) return DOUBLE;
      if (t instanceof StringType) return STRING;
      if (t instanceof BinaryType) return BINARY;
      if (t instanceof DecimalType) return DECIMAL;
      throw new UnsupportedOperationException("AsofMerge prototype: column type " + t + " is not supported");
    }
  }

  /** One column of one side, by row index; null flags beside the values. */
  static final class Column {
    private final Kind kind;
    private final int precision, scale; // decimals only
    private boolean[] nulls = new boolean[16];
    private long[] longs; // LONG; also BOOLEAN, BYTE, SHORT, INT (widened: one array type for the integers)
    private double[] doubles; // DOUBLE, FLOAT
    private Object[] objects; // STRING, BINARY, DECIMAL

    Column(DataType type) {
      kind = Kind.of(type);
      DecimalType decimal = type instanceof DecimalType ? (DecimalType) type : null;
      precision = decimal == null ? 0 : decimal.precision();
      scale = decimal == null ? 0 : decimal.scale();
      switch (kind) {
        case FLOAT, DOUBLE -> doubles = new double[16];
        case STRING, BINARY, DECIMAL -> objects = new Object[16];
        default -> longs = new long[16];
      }
    }

    static Column[] of(DataType[] types) {
      Column[] out = new Column[types.length];
      for (int i = 0; i < out.length; i++) out[i] = new Column(types[i]);
      return out;
    }

    void grow(int capacity) {
      nulls = Arrays.copyOf(nulls, capacity);
      if (longs != null) longs = Arrays.copyOf(longs, capacity);
      if (doubles != null) doubles = Arrays.copyOf(doubles, capacity);
      if (objects != null) objects = Arrays.copyOf(objects, capacity);
    }

    void read(InternalRow row, int ordinal, int i) {
      if (row.isNullAt(ordinal)) {
        nulls[i] = true;
        return;
      }
      nulls[i] = false;
      switch (kind) {
        case BOOLEAN -> longs[i] = row.getBoolean(ordinal) ? 1 : 0;
        case BYTE -> longs[i] = row.getByte(ordinal);
        case SHORT -> longs[i] = row.getShort(ordinal);
        case INT -> longs[i] = row.getInt(ordinal);
        case LONG -> longs[i] = row.getLong(ordinal);
        case FLOAT -> doubles[i] = row.getFloat(ordinal);
        case DOUBLE -> doubles[i] = row.getDouble(ordinal);
        // the row is reused: strings point into its buffer, decimals may be rewritten, so copy them
        case STRING -> objects[i] = row.getUTF8String(ordinal).clone();
        case BINARY -> objects[i] = row.getBinary(ordinal).clone();
        case DECIMAL -> objects[i] = row.getDecimal(ordinal, precision, scale).clone();
      }
    }

    void write(UnsafeRowWriter w, int ordinal, int i) {
      if (nulls[i]) {
        writeNull(w, ordinal);
        return;
      }
      switch (kind) {
        case BOOLEAN -> w.write(ordinal, longs[i] != 0);
        case BYTE -> w.write(ordinal, (byte) longs[i]);
        case SHORT -> w.write(ordinal, (short) longs[i]);
        case INT -> w.write(ordinal, (int) longs[i]);
        case LONG -> w.write(ordinal, longs[i]);
        case FLOAT -> w.write(ordinal, (float) doubles[i]);
        case DOUBLE -> w.write(ordinal, doubles[i]);
        case STRING -> w.write(ordinal, (UTF8String) objects[i]);
        case BINARY -> w.write(ordinal, (byte[]) objects[i]);
        case DECIMAL -> w.write(ordinal, (Decimal) objects[i], precision, scale);
      }
    }

    void writeNull(UnsafeRowWriter w, int ordinal) {
      if (kind == Kind.DECIMAL && precision > Decimal.MAX_LONG_DIGITS()) {
        w.write(ordinal, (Decimal) null, precision, scale); // a wide decimal keeps its slot in the buffer
      } else {
        w.setNullAt(ordinal);
      }
    }
  }
}
