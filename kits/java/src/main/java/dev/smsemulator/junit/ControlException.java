package dev.smsemulator.junit;

/** An error answer of the control API: its catalogued code, HTTP status and description. */
public class ControlException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public final String code;
  public final int status;
  public final String description;

  public ControlException(String code, int status, String description, Throwable cause) {
    super(code + " (" + status + "): " + description, cause);
    this.code = code;
    this.status = status;
    this.description = description;
  }
}
