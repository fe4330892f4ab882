package io.schedext.testing.realcluster;

import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;
import org.junit.jupiter.params.support.ParameterDeclarations;

/**
 * Arguments of the parameterized tests of a {@link RealCluster} class, each named with the
 * Kubernetes version the class runs on, so that reports tell the versions apart: use with
 * {@code @ParameterizedTest(name = "{0}")}.
 */
public final class OnEachVersion {

  private OnEachVersion() {}

  /** Both {@code nodeCacheCapable} modes: {@code nodeCacheCapable=true [v1.34.9]}, then false. */
  public static final class NodeCacheCapable implements ArgumentsProvider {
    @Override
    public Stream<? extends Arguments> provideArguments(
        ParameterDeclarations parameters, ExtensionContext context) {
      String version = RealClusterExtension.version();
      return Stream.of(true, false)
          .map(b -> Arguments.of(Named.of("nodeCacheCapable=" + b + " [" + version + "]", b)));
    }
  }
}
