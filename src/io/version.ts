// The loopsim version, recorded in every report.
export const VERSION = "0.1.0";
