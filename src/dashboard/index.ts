/** The dashboard: one self-contained HTML page drawn from the named reports. */
export {
  buildDashboard,
  checkDashboardRequest,
  dashboardPage,
  writeDashboardFile,
  DEFAULT_TOP_N,
  type DashboardPage,
  type DashboardRequest,
} from './generate.js';
export { startDashboardServer, type RunningDashboardServer } from './server.js';
