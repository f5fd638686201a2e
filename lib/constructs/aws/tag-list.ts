/** `key=value,key=value`, the tag list format of the AWS Load Balancer Controller's annotations. */
export function tagList(tags: Readonly<Record<string, string>>): string {
  return Object.entries(tags)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}
