package io.schedext;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Entry point: a kube-scheduler extender serving filter, prioritize, preempt and bind. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SchedulerExtenderApplication {

  /** Starts the service. */
  public static void main(String[] args) {
    SpringApplication.run(SchedulerExtenderApplication.class, args);
  }
}
