package io.memogate.broker.probe.sqlserver;

import java.sql.SQLException;

/**
 * Where a poll's result sets come from: the monitoring connection ({@link DmvReader}), or hand-written files in a test.
 * The rights are asked first, so that a login without them is told why rather than failing on a view.
 */
interface DmvSource {

    MonitoringRights rights() throws SQLException;

    DmvResults results() throws SQLException;
}
