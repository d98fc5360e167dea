package tjhive;

/**
 * Prints the JVM options pyspark's launcher gives every Spark JVM (one a line), so the Hive JVM
 * opens the same JDK packages to reflection. Run with spark-launcher on the classpath; reflective
 * so that compiling needs no Spark jar.
 */
public final class SparkModuleOptions {
  public static void main(String[] args) throws Exception {
    Class<?> options = Class.forName("org.apache.spark.launcher.JavaModuleOptions");
    for (String option : (String[]) options.getMethod("defaultModuleOptionArray").invoke(null)) {
      System.out.println(option);
    }
  }
}
