package io.schedext.testing.realcluster;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterClassTemplateInvocationCallback;
import org.junit.jupiter.api.extension.BeforeClassTemplateInvocationCallback;
import org.junit.jupiter.api.extension.ClassTemplateInvocationContext;
import org.junit.jupiter.api.extension.ClassTemplateInvocationContextProvider;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.springframework.test.annotation.DirtiesContext.HierarchyMode;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;

/**
 * Runs a {@link RealCluster} class: skips it when the programs are missing, and otherwise runs it
 * once per set of programs (one Kubernetes version each, named by its version). Each run starts
 * that version's control plane before its tests (before Spring's context, which reads its
 * kubeconfig) and, after them, closes the run's Spring context and then the control plane. Runs
 * each {@link RealClusterTest} once, named after the version.
 */
public final class RealClusterExtension
    implements ExecutionCondition,
        ClassTemplateInvocationContextProvider,
        TestTemplateInvocationContextProvider {

  private static final AtomicBoolean TOLD = new AtomicBoolean();
  private static volatile ControlPlane current;
  private static volatile TestContext springContext;

  /** The control plane of the class running now. */
  public static ControlPlane get() {
    ControlPlane cp = current;
    if (cp == null) {
      throw new IllegalStateException(
          "no control plane: annotate the test class with @RealCluster");
    }
    return cp;
  }

  /** The Kubernetes version of the control plane of the class running now ({@code v1.34.9}). */
  public static String version() {
    return get().assets().version();
  }

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    if (!Assets.findAll().isEmpty()) {
      return ConditionEvaluationResult.enabled("real-cluster assets found");
    }
    String why = Assets.whyMissing();
    if (TOLD.compareAndSet(false, true)) {
      System.err.println(why);
    }
    return ConditionEvaluationResult.disabled(why);
  }

  @Override
  public boolean supportsClassTemplate(ExtensionContext context) {
    return true;
  }

  @Override
  public Stream<ClassTemplateInvocationContext> provideClassTemplateInvocationContexts(
      ExtensionContext context) {
    String name = context.getRequiredTestClass().getSimpleName();
    return Assets.findAll().stream().map(a -> new Run(name, a));
  }

  @Override
  public boolean supportsTestTemplate(ExtensionContext context) {
    return context.getRequiredTestMethod().isAnnotationPresent(RealClusterTest.class);
  }

  @Override
  public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(
      ExtensionContext context) {
    String name = "[" + version() + "]";
    return Stream.of(
        new TestTemplateInvocationContext() {
          @Override
          public String getDisplayName(int invocationIndex) {
            return name;
          }
        });
  }

  /**
   * One run of the class on one version's programs, with its own callbacks: those of the class
   * itself (its {@code BeforeAll}, Spring's) fire once around all runs.
   */
  private record Run(String testClass, Assets assets)
      implements ClassTemplateInvocationContext,
          BeforeClassTemplateInvocationCallback,
          AfterClassTemplateInvocationCallback {

    @Override
    public String getDisplayName(int invocationIndex) {
      return testClass + " [" + assets.version() + "]";
    }

    @Override
    public List<Extension> getAdditionalExtensions() {
      return List.of(this);
    }

    @Override
    public void beforeClassTemplateInvocation(ExtensionContext context) {
      current = ControlPlane.start(assets);
    }

    @Override
    public void afterClassTemplateInvocation(ExtensionContext context) {
      // The run's service goes first, while the API server it watches is still there; the next
      // run's service is then a new one, watching the next control plane.
      TestContext spring = springContext;
      springContext = null;
      ControlPlane cp = current;
      current = null;
      try {
        if (spring != null && spring.hasApplicationContext()) {
          spring.markApplicationContextDirty(HierarchyMode.EXHAUSTIVE);
        }
      } finally {
        if (cp != null) {
          cp.close();
        }
      }
    }
  }

  /**
   * Remembers the Spring test context of the class running now, so that each run closes the service
   * it started (Spring keeps one test context per class, shared by its runs).
   */
  public static final class SpringContexts implements TestExecutionListener {
    @Override
    public void prepareTestInstance(TestContext testContext) {
      springContext = testContext;
    }
  }
}
