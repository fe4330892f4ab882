package io.schedext.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The frameworks built again and again for the warm-up's private instances: new every time, from
 * files read, checked and reported once.
 */
class FrameworkBuilderRepeatableTest {

  @Test
  void everyBuildIsNewAndTheProfilesAreReportedOnce() {
    Logger logger = (Logger) LoggerFactory.getLogger(FrameworkBuilder.class);
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    Level previous = logger.getLevel();
    logger.setLevel(Level.INFO);
    lines.start();
    logger.addAppender(lines);
    try {
      Supplier<Frameworks> builds =
          FrameworkBuilder.repeatable(
              "", "", "", InTreeRegistry.create(), TestFrameworks.services(new ObjectStore()));
      Frameworks first = builds.get();
      Frameworks second = builds.get();
      Frameworks third = builds.get();

      assertThat(List.of(second, third)).doesNotContain(first);
      assertThat(third).isNotSameAs(second);
      assertThat(third.defaultFramework()).isNotSameAs(second.defaultFramework());
      assertThat(third.defaultFramework().profileName())
          .isEqualTo(first.defaultFramework().profileName())
          .isEqualTo(ProfileDefaults.NAME);
      assertThat(lines.list)
          .filteredOn(e -> e.getFormattedMessage().startsWith("profiles "))
          .hasSize(1);
    } finally {
      logger.detachAppender(lines);
      logger.setLevel(previous);
    }
  }

  @Test
  void aFileThatCannotBeUsedFailsAtOnceNotAtTheFirstBuild() {
    assertThatThrownBy(
            () ->
                FrameworkBuilder.repeatable(
                    "/nonexistent/scheduler-config.yaml",
                    "",
                    "",
                    InTreeRegistry.create(),
                    TestFrameworks.services(new ObjectStore())))
        .isInstanceOf(ConfigFileException.class)
        .hasMessageContaining("/nonexistent/scheduler-config.yaml");
  }
}
