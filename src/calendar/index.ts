export {
  DAY_MS,
  isCalendarDate,
  calendarDateProblem,
  CalendarDate,
  dateToMs,
  msToDate,
  dateToDays,
  daysToDate,
  todayUtc,
  addDays,
  daysBetween,
  monthStart,
  monthEnd,
  minDate,
  maxDate,
  eachDay,
} from './calendar-date.js';
export { isTimeZone } from './time-zone.js';
