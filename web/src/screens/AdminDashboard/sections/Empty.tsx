/** Analytics and Settings: SPEC §2 says they show nothing. */
export default function Empty() {
  return <div className="admin-empty-section" data-testid="empty-section" />;
}
