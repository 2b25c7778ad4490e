// A share (0..1) as a percentage, each formatter named by its precision, so a report says the
// same share the same way wherever it appears.

const tenths = (x: number) => Math.round(x * 1000) / 10;

/** Always one decimal: 0.125 -> "12.5%", 0.12 -> "12.0%" (tables where digits line up). */
export const percentOneDecimal = (x: number): string => `${tenths(x).toFixed(1)}%`;

/** Up to one decimal, none when whole: 0.125 -> "12.5%", 0.12 -> "12%" (chart labels, prose). */
export const percentUpToOneDecimal = (x: number): string => `${tenths(x).toString()}%`;

/** Whole percent: 0.125 -> "13%" (grid odds, where the decimals are noise). */
export const percentWhole = (x: number): string => `${Math.round(x * 100)}%`;
