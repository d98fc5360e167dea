"""Parse HiveQL with Hive 2.3's own parser, the one inside the pyspark wheel.

pyspark ships hive-exec-2.3.x-core.jar and antlr-runtime on the driver's classpath, so the
parser is reachable through py4j from any SparkSession; no Hive installation is needed.
"""

from __future__ import annotations

import os
import tempfile


class HiveParseError(ValueError):
    """The statement is not valid HiveQL 2.3."""


_contexts: dict = {}


def _hive_context(spark):
    """A Hive query Context carrying a default HiveConf, as a Hive server parses with.

    Without a conf Hive's lexer refuses `backtick` identifiers; with the default
    (hive.support.quoted.identifiers=column) it accepts them, as real Hive does. The
    Context only needs its session paths set; nothing is written there while parsing.
    """
    key = id(spark.sparkContext)
    if key not in _contexts:
        jvm = spark._jvm
        scratch = tempfile.mkdtemp(prefix="tj_hive_parse_")
        conf = jvm.org.apache.hadoop.hive.conf.HiveConf()
        conf.set("_hive.hdfs.session.path", os.path.join(scratch, "hdfs"))
        conf.set("_hive.local.session.path", os.path.join(scratch, "local"))
        # With Hive support on, Spark has attached a Hive SessionState to this thread, and
        # Context would read that session's (unset) paths instead of `conf`: step out of it.
        session_state = jvm.org.apache.hadoop.hive.ql.session.SessionState
        current = session_state.get()
        session_state.detachSession()
        try:
            _contexts[key] = jvm.org.apache.hadoop.hive.ql.Context(conf)
        finally:
            if current is not None:
                session_state.setCurrentSessionState(current)
    return _contexts[key]


def parse_hive(spark, sql: str) -> str:
    """Parse `sql` with org.apache.hadoop.hive.ql.parse.ParseDriver; return the AST as text.

    Raises HiveParseError with Hive's message when the statement does not parse.
    """
    driver = spark._jvm.org.apache.hadoop.hive.ql.parse.ParseDriver()
    try:
        return driver.parse(sql, _hive_context(spark)).dump()
    except Exception as exc:  # py4j wraps org.apache.hadoop.hive.ql.parse.ParseException
        message = str(exc)
        marker = "ParseException:"
        if marker in message:
            message = message.split(marker, 1)[1].split("\n\tat ", 1)[0].strip()
        raise HiveParseError(message) from None
