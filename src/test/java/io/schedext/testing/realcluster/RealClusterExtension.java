package io.schedext.testing.realcluster;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a {@link RealCluster} class: skips it when the programs are missing, starts the control
 * plane before the class (before Spring's context, which reads its kubeconfig) and stops it after
 * the class.
 */
public final class RealClusterExtension
    implements ExecutionCondition, BeforeAllCallback, AfterAllCallback {

  private static final AtomicBoolean TOLD = new AtomicBoolean();
  private static volatile ControlPlane current;

  /** The control plane of the class running now. */
  public static ControlPlane get() {
    ControlPlane cp = current;
    if (cp == null) {
      throw new IllegalStateException(
          "no control plane: annotate the test class with @RealCluster");
    }
    return cp;
  }

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    if (Assets.find().isPresent()) {
      return ConditionEvaluationResult.enabled("real-cluster assets found");
    }
    String why = Assets.whyMissing();
    if (TOLD.compareAndSet(false, true)) {
      System.err.println(why);
    }
    return ConditionEvaluationResult.disabled(why);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    Optional<Assets> assets = Assets.find();
    current = ControlPlane.start(assets.orElseThrow());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    ControlPlane cp = current;
    current = null;
    if (cp != null) {
      cp.close();
    }
  }
}
