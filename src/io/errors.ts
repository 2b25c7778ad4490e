// Exit codes are part of the interface: 0 ok, 1 a check failed, 2 the user's input is wrong.
// User errors carry a message that names the place (file, line, JSON path) and are printed
// without a stack trace.

export class UserError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = "UserError";
  }
}

export class CheckFailed extends Error {
  readonly exitCode = 1;
  constructor(message: string) {
    super(message);
    this.name = "CheckFailed";
  }
}

export const EXIT_OK = 0;
export const EXIT_CHECK_FAILED = 1;
export const EXIT_USER_ERROR = 2;
export const EXIT_INTERNAL = 3;
