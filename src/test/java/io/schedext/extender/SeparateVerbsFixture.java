package io.schedext.extender;

/** Separate verbs for tests outside this package that call them in process only. */
public final class SeparateVerbsFixture {

  private SeparateVerbsFixture() {}

  /** A factory over {@code codec} whose verbs are called in process only (no endpoint). */
  public static SeparateVerbs.Factory inProcess(WireCodec codec) {
    return new SeparateVerbs.Factory(codec, null, null, null);
  }
}
