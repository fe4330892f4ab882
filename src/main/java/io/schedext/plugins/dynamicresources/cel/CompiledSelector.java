package io.schedext.plugins.dynamicresources.cel;

import dev.cel.common.CelErrorCode;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelEvaluationListener;
import dev.cel.runtime.CelRuntime;

/**
 * One compiled device selector, or the reason it did not compile (upstream's {@code
 * CompilationResult}). Evaluating it on a device answers whether the device matches, or throws
 * {@link SelectorException} with the runtime error as cel-go words it. Immutable and thread-safe.
 */
public final class CompiledSelector {

  private static final String COST_EXCEEDED = "operation cancelled: actual cost limit exceeded";

  private final String expression;
  private final CelRuntime.Program program;
  private final String error;

  private CompiledSelector(String expression, CelRuntime.Program program, String error) {
    this.expression = expression;
    this.program = program;
    this.error = error;
  }

  static CompiledSelector compiled(String expression, CelRuntime.Program program) {
    return new CompiledSelector(expression, program, null);
  }

  static CompiledSelector failed(String expression, String error) {
    return new CompiledSelector(expression, null, error);
  }

  /** The expression. */
  public String expression() {
    return expression;
  }

  /** Why it did not compile ({@code compilation failed: ERROR: <input>:1:8: ...}), or null. */
  public String error() {
    return error;
  }

  /**
   * Whether {@code device} matches; throws {@link SelectorException} on a runtime error (or when
   * the selector did not compile, which callers check first).
   */
  public boolean matches(CelDevice device) {
    if (error != null) {
      throw new SelectorException(error);
    }
    if (device.error() != null) {
      throw new SelectorException(device.error());
    }
    Object result;
    try {
      result = program.trace(device.activation(), new CostLimit());
    } catch (CostLimit.Exceeded e) {
      throw new SelectorException(COST_EXCEEDED);
    } catch (CelEvaluationException e) {
      throw new SelectorException(message(e));
    }
    if (result instanceof Boolean b) {
      return b;
    }
    throw new SelectorException(
        "CEL result of type "
            + (result == null ? "null_type" : result.getClass().getSimpleName())
            + " could not be converted to bool");
  }

  /**
   * cel-go's words for the runtime errors selectors run into most (a missing key, a division by
   * zero, no matching overload); others keep CEL-Java's message without its position prefix.
   */
  static String message(CelEvaluationException e) {
    Throwable cause = e.getCause();
    if (cause instanceof CostLimit.Exceeded) {
      return COST_EXCEEDED;
    }
    String m = e.getMessage() == null ? "" : e.getMessage();
    int at = m.startsWith("evaluation error at ") ? m.indexOf(": ") : -1;
    if (at >= 0) {
      m = m.substring(at + 2);
    }
    CelErrorCode code = e.getErrorCode();
    if (code == CelErrorCode.ATTRIBUTE_NOT_FOUND) {
      // A missing key reads "key 'k' is not present in map." after a field selection, and just
      // "k" after an index.
      String key = between(m, "key '", "' is not present");
      if (key == null && !m.startsWith("Error resolving") && !m.startsWith("No such attribute")) {
        key = m;
      }
      return key == null ? m : "no such key: " + key;
    }
    if (code == CelErrorCode.DIVIDE_BY_ZERO) {
      return m.contains("%") || m.toLowerCase().contains("modulus")
          ? "modulus by zero"
          : "division by zero";
    }
    if (code == CelErrorCode.OVERLOAD_NOT_FOUND) {
      return "no such overload";
    }
    if (code == CelErrorCode.NUMERIC_OVERFLOW) {
      return "integer overflow";
    }
    return m;
  }

  private static String between(String s, String from, String to) {
    int a = s.indexOf(from);
    int b = a < 0 ? -1 : s.indexOf(to, a + from.length());
    return a < 0 || b < 0 ? null : s.substring(a + from.length(), b);
  }

  /**
   * Counts evaluated expression nodes against {@link DeviceSelectors#COST_LIMIT}: CEL-Java tracks
   * no cost, and a node is roughly one of cel-go's cost units, so runaway comprehensions stop as
   * they do upstream.
   */
  private static final class CostLimit implements CelEvaluationListener {
    private long cost;

    @Override
    public void callback(dev.cel.common.ast.CelExpr expr, Object evaluatedResult) {
      if (++cost > DeviceSelectors.COST_LIMIT) {
        throw new Exceeded();
      }
    }

    static final class Exceeded extends RuntimeException {
      Exceeded() {
        super(COST_EXCEEDED, null, false, false);
      }
    }
  }

  @Override
  public String toString() {
    return expression;
  }
}
