"""Parse HiveQL with Hive 2.3's own parser, the one inside the pyspark wheel.

pyspark ships hive-exec-2.3.x-core.jar and antlr-runtime on the driver's classpath, so the
parser is reachable through py4j from any SparkSession; no Hive installation is needed.
"""

from __future__ import annotations


class HiveParseError(ValueError):
    """The statement is not valid HiveQL 2.3."""


def parse_hive(spark, sql: str) -> str:
    """Parse `sql` with org.apache.hadoop.hive.ql.parse.ParseDriver; return the AST as text.

    Raises HiveParseError with Hive's message when the statement does not parse.
    """
    driver = spark._jvm.org.apache.hadoop.hive.ql.parse.ParseDriver()
    try:
        return driver.parse(sql).dump()
    except Exception as exc:  # py4j wraps org.apache.hadoop.hive.ql.parse.ParseException
        message = str(exc)
        marker = "ParseException:"
        if marker in message:
            message = message.split(marker, 1)[1].split("\n\tat ", 1)[0].strip()
        raise HiveParseError(message) from None
