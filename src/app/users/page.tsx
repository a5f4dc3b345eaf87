import { Allowed } from "@/features/auth/components/Allowed";
import { UsersPage } from "@/features/auth/components/UsersPage";

export default function Page() {
  return (
    <>
      <h1>Users</h1>
      <p className="sub">
        Who may sign in and what their role lets them change. Everyone signed in can read everything.
      </p>
      <Allowed permission="user:list" explain="manage people">
        <UsersPage />
      </Allowed>
    </>
  );
}
