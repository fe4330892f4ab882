/**
 * Profile building: from a configuration file to the frameworks the extender serves, as
 * kube-scheduler's {@code apis/config} and {@code profile} packages do.
 *
 * <ul>
 *   <li>{@link io.schedext.profiles.InTreeRegistry}: every in-tree plugin, registered once with its
 *       name, its args type and its factory. Adding a plugin is its package under {@code plugins/}
 *       and one line there.
 *   <li>{@code SchedulerConfigLoader} reads a KubeSchedulerConfiguration file, {@code
 *       PolicyTranslator} (with {@code PolicyPlugins}, {@code PolicyArgs} and {@code
 *       PolicyValidation}) a legacy Policy; both apply {@link io.schedext.profiles.ProfileDefaults}
 *       (upstream's default profile, the merge onto it and args defaulting) and give a {@code
 *       KubeSchedulerConfiguration}: the {@link io.schedext.framework.Profile}s with the {@code
 *       FieldPaths} their parts came from.
 *   <li>{@link io.schedext.profiles.FrameworkBuilder} picks the source and builds one {@link
 *       io.schedext.framework.runtime.Framework} per profile, as {@link
 *       io.schedext.framework.runtime.Frameworks}; a file or profile it cannot use stops start-up
 *       with a {@link io.schedext.profiles.ConfigFileException} naming the field.
 * </ul>
 *
 * <p>The Spring settings that name the files live in {@code config/}; this package reads no Spring
 * property.
 */
package io.schedext.profiles;
