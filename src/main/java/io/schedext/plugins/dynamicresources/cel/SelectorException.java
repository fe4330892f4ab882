package io.schedext.plugins.dynamicresources.cel;

/** A selector failed to compile or to evaluate on a device; the message is upstream's detail. */
public final class SelectorException extends RuntimeException {

  /** The failure, worded as cel-go words it. */
  public SelectorException(String message) {
    super(message, null, false, false);
  }
}
