// Format assertions, off by default: in draft 2020-12 `format` is an annotation unless the
// format-assertion vocabulary is on. Only the formats tool schemas commonly use are checked;
// an unknown format passes.
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(z|[+-]\d{2}:\d{2})$/i;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]!;
  return d <= days;
}

function validTime(s: string): boolean {
  const m = TIME.exec(s);
  if (m === null) return false;
  const [h, mi, sec] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (h > 23 || mi > 59 || sec > 60) return false;
  const zone = m[5]!;
  if (zone.length > 1 && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4, 6)) > 59)) return false;
  if (sec === 60) {
    // A leap second is 23:59:60 in UTC.
    let offset = 0;
    if (zone.length > 1) offset = (zone[0] === "+" ? 1 : -1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
    const utc = (((h * 60 + mi - offset) % 1440) + 1440) % 1440;
    return utc === 23 * 60 + 59;
  }
  return true;
}

const CHECKS: Readonly<Record<string, (s: string) => boolean>> = {
  date: validDate,
  time: validTime,
  "date-time": (s) => {
    const t = s.search(/t/i);
    return t === 10 && validDate(s.slice(0, 10)) && validTime(s.slice(11));
  },
  email: (s) => EMAIL.test(s),
  uuid: (s) => UUID.test(s),
  ipv4: (s) => IPV4.test(s),
  regex: (s) => {
    try {
      new RegExp(s, "u");
      return true;
    } catch {
      return false;
    }
  },
};

/** Whether v satisfies `format` (non-strings and unknown formats always do). */
export function checkFormat(format: string, v: unknown): boolean {
  if (typeof v !== "string") return true;
  const check = CHECKS[format];
  return check === undefined || check(v);
}
